/// Terminal Type (tag `9F35`, n 2): who operates the terminal, whether it is attended and
/// how it reaches the issuer, coded as in EMV Book 4 Annex A1.
///
/// `22` reads "Attended, offline with online capability, operated by merchant".
public struct TerminalType: Sendable, Hashable {
    /// The two-digit code (`22`).
    public let code: Int
    /// Who operates the terminal (first digit).
    public let operatedBy: Operator
    /// Whether the terminal is attended (second digit 1-3) or not (4-6).
    public let attended: Bool
    /// How the terminal authorises (second digit).
    public let connectivity: Connectivity

    /// Decodes a Terminal Type value; throws unless it is one byte of two decimal digits
    /// that EMV defines.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(1))
        let code = try BCD.twoDigits(bytes[0], at: 0)
        let environment = code / 10
        let kind = code % 10
        guard let op = Operator(rawValue: environment), (1...6).contains(kind) else {
            throw .invalidValue("terminal type \(code / 10)\(code % 10) is not defined")
        }
        self.code = code
        self.operatedBy = op
        self.attended = kind <= 3
        self.connectivity = Connectivity(rawValue: (kind - 1) % 3 + 1)!
    }

    /// The type in one sentence.
    public var statements: [String] {
        ["\(attended ? "Attended" : "Unattended"), \(connectivity.description), operated by \(operatedBy.description)"]
    }

    /// The terminal's operator.
    public enum Operator: Int, Sendable, Hashable, CustomStringConvertible {
        /// `1x`.
        case financialInstitution = 1
        /// `2x`.
        case merchant = 2
        /// `3x`.
        case cardholder = 3

        /// Lower-case name.
        public var description: String {
            switch self {
            case .financialInstitution: "financial institution"
            case .merchant: "merchant"
            case .cardholder: "cardholder"
            }
        }
    }

    /// How the terminal authorises transactions.
    public enum Connectivity: Int, Sendable, Hashable, CustomStringConvertible {
        /// `x1`/`x4`.
        case onlineOnly = 1
        /// `x2`/`x5`.
        case offlineWithOnlineCapability = 2
        /// `x3`/`x6`.
        case offlineOnly = 3

        /// Lower-case name.
        public var description: String {
            switch self {
            case .onlineOnly: "online only"
            case .offlineWithOnlineCapability: "offline with online capability"
            case .offlineOnly: "offline only"
            }
        }
    }
}
