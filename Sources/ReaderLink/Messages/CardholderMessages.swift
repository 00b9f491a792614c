import MPOSCore

/// What kind of answer an input request wants.
public enum InputKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Yes or no.
    case confirm = 1
    /// An amount in minor units.
    case amount = 2
    /// A string of digits.
    case digits = 3
    /// Free text.
    case text = 4
}

/// The reader asks the cardholder or merchant for input.
public struct InputRequest: Sendable, Hashable {
    /// The prompt shown.
    public var prompt: String
    /// The kind of input wanted.
    public var kind: InputKind

    /// Creates an input request.
    public init(prompt: String, kind: InputKind) {
        self.prompt = prompt
        self.kind = kind
    }
}

/// The answer to an ``InputRequest``.
public enum InputResponse: Sendable, Hashable {
    /// A yes/no answer.
    case confirmed(Bool)
    /// The text, digits or amount (in minor units, as decimal digits) entered.
    case value(String)
    /// The user cancelled.
    case cancelled
}

/// One application the card offers, for the cardholder to choose from.
public struct ApplicationCandidate: Sendable, Hashable {
    /// The application identifier.
    public var aid: [UInt8]
    /// The application label (tag 50).
    public var label: String
    /// The application preferred name (tag 9F12), if any.
    public var preferredName: String?
    /// The application priority indicator (tag 87), 0 when absent.
    public var priority: UInt8

    /// Creates a candidate.
    public init(aid: [UInt8], label: String, preferredName: String? = nil, priority: UInt8 = 0) {
        self.aid = aid
        self.label = label
        self.preferredName = preferredName
        self.priority = priority
    }
}

/// The answer to an application selection request.
public enum ApplicationChoice: Sendable, Hashable {
    /// The zero-based index of the chosen candidate.
    case chosen(index: UInt8)
    /// The selection was cancelled.
    case cancel
}

/// The cardholder's signature, captured on the phone, sent to the reader.
public struct SignatureResponse: Sendable, Hashable {
    /// The transaction the signature belongs to.
    public var transactionID: String
    /// Whether the cardholder signed (false: declined to sign).
    public var accepted: Bool
    /// The signature image as PNG (empty when declined).
    public var png: [UInt8]

    /// Creates a signature response.
    public init(transactionID: String, accepted: Bool, png: [UInt8]) {
        self.transactionID = transactionID
        self.accepted = accepted
        self.png = png
    }
}

/// The merchant's verdict on the signature, compared with the card.
public struct SignatureVerdict: Sendable, Hashable {
    /// The transaction the signature belongs to.
    public var transactionID: String
    /// Whether the merchant accepts the signature.
    public var accepted: Bool

    /// Creates a verdict.
    public init(transactionID: String, accepted: Bool) {
        self.transactionID = transactionID
        self.accepted = accepted
    }
}

/// PIN entry progress, for the SDK's display. Never carries the digits themselves.
public struct PINEntryProgress: Sendable, Hashable {
    /// How many digits have been entered so far.
    public var digitsEntered: UInt8
    /// PIN tries left on the card, when known.
    public var attemptsLeft: UInt8?

    /// Creates a progress report.
    public init(digitsEntered: UInt8, attemptsLeft: UInt8?) {
        self.digitsEntered = digitsEntered
        self.attemptsLeft = attemptsLeft
    }
}
