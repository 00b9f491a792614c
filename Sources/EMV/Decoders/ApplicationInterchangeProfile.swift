/// Application Interchange Profile (AIP, tag `82`, 2 bytes): the functions the card
/// supports in this application, coded as in EMV Book 3 Annex C1 with the bits the
/// contactless specifications add.
public struct ApplicationInterchangeProfile: Sendable, Hashable {
    /// The two value bytes.
    public let bytes: [UInt8]

    /// Decodes an AIP value; throws unless it is exactly 2 bytes.
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

    /// The defined AIP bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 7.
        case sdaSupported = 17
        /// Byte 1 bit 6.
        case ddaSupported = 16
        /// Byte 1 bit 5.
        case cardholderVerificationSupported = 15
        /// Byte 1 bit 4.
        case terminalRiskManagementRequired = 14
        /// Byte 1 bit 3.
        case issuerAuthenticationSupported = 13
        /// Byte 1 bit 2 (contactless).
        case onDeviceCardholderVerificationSupported = 12
        /// Byte 1 bit 1.
        case cdaSupported = 11
        /// Byte 2 bit 8 (contactless Kernel 2).
        case emvModeSupported = 28
        /// Byte 2 bit 1 (contactless Kernel 2).
        case relayResistanceProtocolSupported = 21

        /// The bit's meaning as the specifications word it.
        public var description: String {
            switch self {
            case .sdaSupported: "SDA supported"
            case .ddaSupported: "DDA supported"
            case .cardholderVerificationSupported: "Cardholder verification is supported"
            case .terminalRiskManagementRequired: "Terminal risk management is to be performed"
            case .issuerAuthenticationSupported: "Issuer authentication is supported"
            case .onDeviceCardholderVerificationSupported: "On device cardholder verification is supported"
            case .cdaSupported: "CDA supported"
            case .emvModeSupported: "EMV mode is supported"
            case .relayResistanceProtocolSupported: "Relay resistance protocol is supported"
            }
        }
    }
}
