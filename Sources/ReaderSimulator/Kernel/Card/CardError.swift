/// Why a card command failed. Carries status words and command names, never card data.
///
/// Match a kind with `catch let error as CardError where error.kind == .removed`.
public struct CardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The card left the reader (or the reader lost it) before it answered.
        case removed
        /// The chip does not answer, or not as a payment card: fall back to the stripe.
        case mute
        /// The card's application is blocked (SELECT answered `6283`, or PPSE `6A81`).
        case blocked
        /// The card answered a status word or data the command does not allow.
        case unexpectedAnswer
        /// The reader or its link failed (PC/SC, a socket).
        case transport
    }

    /// What went wrong.
    public let kind: Kind
    /// One line for a developer: the command and status words involved.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `kind: message`.
    public var description: String { "\(kind): \(message)" }

    /// Errors are equal by kind, so tests and callers can match on it.
    public static func == (lhs: CardError, rhs: CardError) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
