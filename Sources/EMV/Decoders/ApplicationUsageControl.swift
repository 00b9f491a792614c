/// Application Usage Control (AUC, tag `9F07`, 2 bytes): the issuer's restrictions on where
/// and for what the application may be used, coded as in EMV Book 3 Annex C2.
public struct ApplicationUsageControl: Sendable, Hashable {
    /// The two value bytes.
    public let bytes: [UInt8]

    /// Decodes an AUC value; throws unless it is exactly 2 bytes.
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

    /// The defined AUC bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 8.
        case domesticCash = 18
        /// Byte 1 bit 7.
        case internationalCash = 17
        /// Byte 1 bit 6.
        case domesticGoods = 16
        /// Byte 1 bit 5.
        case internationalGoods = 15
        /// Byte 1 bit 4.
        case domesticServices = 14
        /// Byte 1 bit 3.
        case internationalServices = 13
        /// Byte 1 bit 2.
        case atms = 12
        /// Byte 1 bit 1.
        case nonATMTerminals = 11
        /// Byte 2 bit 8.
        case domesticCashback = 28
        /// Byte 2 bit 7.
        case internationalCashback = 27

        /// The bit's meaning as EMV Book 3 words it.
        public var description: String {
            switch self {
            case .domesticCash: "Valid for domestic cash transactions"
            case .internationalCash: "Valid for international cash transactions"
            case .domesticGoods: "Valid for domestic goods"
            case .internationalGoods: "Valid for international goods"
            case .domesticServices: "Valid for domestic services"
            case .internationalServices: "Valid for international services"
            case .atms: "Valid at ATMs"
            case .nonATMTerminals: "Valid at terminals other than ATMs"
            case .domesticCashback: "Domestic cashback allowed"
            case .internationalCashback: "International cashback allowed"
            }
        }
    }
}
