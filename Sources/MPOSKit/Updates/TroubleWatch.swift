/// What the terminal has seen of one reader that points to an ``UpdateTrouble``: how often an
/// update restarted it onto the same image, and how many payments in a row it declined
/// before asking for a card. Kept for one reader: another reader's serial number starts over.
struct TroubleWatch: Sendable, Hashable {
    /// Restarts onto the same image that make an update loop: one is the install, a second a
    /// retry after an interruption; a third means the image does not stay.
    static let restartsOntoOneImage = 3
    /// Payments in a row declined before the card prompt that make it the reader, not the cards.
    static let declinesInARow = 3

    private var reader: String?
    private var restarts: [String: Int] = [:]
    private var declines = 0

    /// An update restarted the reader `serial` onto the image `imageID`.
    mutating func restarted(onto imageID: String, reader serial: String) {
        follow(serial)
        restarts[imageID, default: 0] += 1
    }

    /// A card payment on the reader `serial` ended: declined before the reader asked for a card,
    /// or after it asked (which shows it works).
    mutating func paymentEnded(declinedBeforeCardPrompt: Bool, reader serial: String) {
        follow(serial)
        declines = declinedBeforeCardPrompt ? declines + 1 : 0
    }

    /// The troubles seen on the reader `serial`, in ``UpdateTrouble``'s order.
    func troubles(reader serial: String?) -> [UpdateTrouble] {
        guard let serial, serial == reader else { return [] }
        var found: [UpdateTrouble] = []
        if restarts.values.contains(where: { $0 >= Self.restartsOntoOneImage }) {
            found.append(.keepsRebooting)
        }
        if declines >= Self.declinesInARow { found.append(.decliningBeforeCardPrompt) }
        return found
    }

    private mutating func follow(_ serial: String) {
        guard serial != reader else { return }
        self = TroubleWatch()
        reader = serial
    }
}
