import MPOSCore

/// What the reader's screen shows the customer while the merchant rings up: the cart's lines,
/// the tax and the total, in one currency (Stripe's `setReaderDisplay`, Square's cart display).
public struct ReaderCart: Sendable, Hashable {
    /// One line of the cart.
    public struct Line: Sendable, Hashable {
        /// What the line is, as the customer reads it.
        public var name: String
        /// How many.
        public var quantity: UInt16
        /// The price of one, in minor units.
        public var unitAmount: Int64

        /// Creates a line.
        public init(name: String, quantity: UInt16 = 1, unitAmount: Int64) {
            self.name = name
            self.quantity = quantity
            self.unitAmount = unitAmount
        }

        /// The line's amount: quantity × unit amount.
        public var amount: Int64 { Int64(quantity) * unitAmount }
    }

    /// The lines, in the order shown.
    public var lines: [Line]
    /// The tax, in minor units.
    public var tax: Int64
    /// The total shown, in minor units: the lines' amounts and the tax.
    public var total: Int64
    /// The ISO 4217 alphabetic code of the amounts.
    public var currency: String

    /// Creates a cart; `total` is the lines' amounts and the tax unless given.
    public init(lines: [Line], tax: Int64 = 0, total: Int64? = nil, currency: String) {
        self.lines = lines
        self.tax = tax
        self.total = total ?? lines.reduce(tax) { $0 + $1.amount }
        self.currency = currency
    }

    /// The most lines a reader's screen takes.
    public static let maximumLines = 50
    /// The longest line name, in characters.
    public static let maximumNameLength = 40

    /// Why the reader would refuse this cart, or nil: no more than ``maximumLines`` lines, names
    /// of 1 to ``maximumNameLength`` characters without control characters, at least one of
    /// each item at a price that is not negative, a tax that is not negative, and a total that
    /// is the lines' amounts and the tax.
    public var problem: String? {
        guard lines.count <= Self.maximumLines else { return "a cart has at most \(Self.maximumLines) lines" }
        for (index, line) in lines.enumerated() {
            guard (1...Self.maximumNameLength).contains(line.name.count),
                !line.name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                return "line \(index + 1): a name has 1 to \(Self.maximumNameLength) characters and no control characters"
            }
            guard line.quantity > 0, line.unitAmount >= 0 else {
                return "line \(index + 1): the quantity must be positive and the price not negative"
            }
        }
        guard tax >= 0 else { return "the tax must not be negative" }
        let sum = lines.reduce(tax) { $0 + $1.amount }
        guard total == sum else { return "the total \(total) is not the lines and the tax, \(sum)" }
        return nil
    }
}

/// What the reader asks the customer (Stripe's `collectInputs`): a question on its screen,
/// answered on its keypad or touch screen.
public struct CustomerInputRequest: Sendable, Hashable {
    /// The kind of answer wanted.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// Yes or no.
        case yesNo = 1
        /// One of ``CustomerInputRequest/choices``.
        case choice = 2
        /// An e-mail address.
        case email = 3
        /// A phone number.
        case phone = 4
        /// Free text.
        case text = 5
        /// A signature drawn on the reader's screen.
        case signature = 6
    }

    /// The question shown.
    public var prompt: String
    /// The kind of answer wanted.
    public var kind: Kind
    /// The choices offered (``Kind/choice`` only, 2 to 6).
    public var choices: [String]
    /// How long the customer has to answer, in seconds (1 to 600).
    public var timeoutSeconds: UInt16

    /// Creates a question.
    public init(prompt: String, kind: Kind, choices: [String] = [], timeoutSeconds: UInt16 = 60) {
        self.prompt = prompt
        self.kind = kind
        self.choices = choices
        self.timeoutSeconds = timeoutSeconds
    }

    /// Why the reader would refuse this question, or nil.
    public var problem: String? {
        guard (1...120).contains(prompt.count) else { return "a prompt has 1 to 120 characters" }
        guard (1...600).contains(timeoutSeconds) else { return "the timeout is 1 to 600 seconds" }
        if kind == .choice {
            guard (2...6).contains(choices.count) else { return "a choice offers 2 to 6 answers" }
            guard choices.allSatisfy({ (1...24).contains($0.count) }) else { return "a choice has 1 to 24 characters" }
        } else if !choices.isEmpty {
            return "only a choice question offers choices"
        }
        return nil
    }
}

/// The customer's answer to a ``CustomerInputRequest``.
public enum CustomerInput: Sendable, Hashable {
    /// Yes or no.
    case yesNo(Bool)
    /// The index of the choice picked.
    case choice(index: UInt8)
    /// The e-mail address, phone number or text typed.
    case text(String)
    /// The signature drawn.
    case signature(CardholderSignature)
    /// The customer pressed cancel instead of answering.
    case skipped
    /// No answer came within the question's timeout.
    case timedOut
}
