/// The ways a sandbox card can be read.
public struct CardInterfaces: OptionSet, Sendable, Hashable {
    /// The bit pattern.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Contact chip (card inserted).
    public static let chip = CardInterfaces(rawValue: 1 << 0)
    /// Contactless (tapped).
    public static let contactless = CardInterfaces(rawValue: 1 << 1)
    /// Magnetic stripe (swiped).
    public static let magstripe = CardInterfaces(rawValue: 1 << 2)

    /// Chip, contactless and stripe.
    public static let all: CardInterfaces = [.chip, .contactless, .magstripe]
}

/// The cardholder verification method a sandbox card's CVM list prefers.
public enum CVMPreference: String, Sendable, Hashable, CaseIterable, Codable {
    /// Enciphered PIN verified online by the issuer.
    case onlinePIN
    /// PIN verified offline by the chip (with a PIN try counter).
    case offlinePIN
    /// Signature on paper or screen.
    case signature
    /// No cardholder verification.
    case noCVM
}

/// How a sandbox card behaves beyond the happy path.
public struct SandboxCardBehaviours: Sendable, Hashable {
    /// The issuer has blocked the card (hot-listed): it declines with `62` and, through the
    /// card status update, blocks the chip application so that later uses fail at selection.
    public var blocked: Bool
    /// The card answers a TC at the first GENERATE AC when the terminal asks for one
    /// (amount at or under the floor limit, nothing wrong in the TVR): approved offline.
    public var approvesOffline: Bool
    /// The card returns an AAC at the second GENERATE AC even after the host approved, so
    /// the terminal must reverse the authorization.
    public var declinesAtSecondGenerateAC: Bool
    /// The card's default action when the terminal cannot go online (8A `Z3`) is to decline
    /// (AAC at the second GENERATE AC); otherwise it approves offline (TC) unless it is
    /// blocked or the cardholder verification failed.
    public var declinesWhenUnableToGoOnline: Bool
    /// The chip cannot be read, so the reader falls back to the magnetic stripe.
    public var magstripeFallback: Bool
    /// Contactless CVM limit in minor units: above it a tap needs the card's CVM, at or under it
    /// none. `nil` when the card has no contactless interface or no limit.
    public var contactlessCVMLimit: Int64?

    /// Creates behaviours; every flag defaults to off.
    public init(
        blocked: Bool = false, approvesOffline: Bool = false, declinesAtSecondGenerateAC: Bool = false,
        magstripeFallback: Bool = false, contactlessCVMLimit: Int64? = nil,
        declinesWhenUnableToGoOnline: Bool = false
    ) {
        self.declinesWhenUnableToGoOnline = declinesWhenUnableToGoOnline
        self.blocked = blocked
        self.approvesOffline = approvesOffline
        self.declinesAtSecondGenerateAC = declinesAtSecondGenerateAC
        self.magstripeFallback = magstripeFallback
        self.contactlessCVMLimit = contactlessCVMLimit
    }

    /// Nothing special.
    public static let normal = SandboxCardBehaviours()
}
