/// Transaction Status Information (TSI, tag `9B`, 2 bytes): the functions the terminal
/// performed during the transaction, coded as in EMV Book 3 Annex C6.
public struct TransactionStatusInformation: Sendable, Hashable {
    /// The two value bytes.
    public let bytes: [UInt8]

    /// Decodes a TSI value; throws unless it is exactly 2 bytes.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(2))
        self.bytes = bytes
    }

    /// Whether `flag` is set.
    public func contains(_ flag: Flag) -> Bool { flag.isSet(in: bytes) }

    /// Every set flag, in bit order.
    public var flags: [Flag] { flagsSet(Flag.self, in: bytes) }

    /// One sentence per set bit; reserved bits that are set are named too.
    public var statements: [String] {
        flags.map(\.description) + reservedBitStatements(Flag.self, in: bytes)
    }

    /// The defined TSI bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 8.
        case offlineDataAuthenticationPerformed = 18
        /// Byte 1 bit 7.
        case cardholderVerificationPerformed = 17
        /// Byte 1 bit 6.
        case cardRiskManagementPerformed = 16
        /// Byte 1 bit 5.
        case issuerAuthenticationPerformed = 15
        /// Byte 1 bit 4.
        case terminalRiskManagementPerformed = 14
        /// Byte 1 bit 3.
        case scriptProcessingPerformed = 13

        /// The bit's meaning as EMV Book 3 words it.
        public var description: String {
            switch self {
            case .offlineDataAuthenticationPerformed: "Offline data authentication was performed"
            case .cardholderVerificationPerformed: "Cardholder verification was performed"
            case .cardRiskManagementPerformed: "Card risk management was performed"
            case .issuerAuthenticationPerformed: "Issuer authentication was performed"
            case .terminalRiskManagementPerformed: "Terminal risk management was performed"
            case .scriptProcessingPerformed: "Script processing was performed"
            }
        }
    }
}
