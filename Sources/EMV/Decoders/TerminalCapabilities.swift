/// Terminal Capabilities (tag `9F33`, 3 bytes): the terminal's card data input, cardholder
/// verification and security capabilities, coded as in EMV Book 4 Annex A2.
public struct TerminalCapabilities: Sendable, Hashable {
    /// The three value bytes.
    public let bytes: [UInt8]

    /// Decodes a Terminal Capabilities value; throws unless it is exactly 3 bytes.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(3))
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

    /// The defined bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 8.
        case manualKeyEntry = 18
        /// Byte 1 bit 7.
        case magneticStripe = 17
        /// Byte 1 bit 6.
        case icWithContacts = 16
        /// Byte 2 bit 8.
        case plaintextPINForICC = 28
        /// Byte 2 bit 7.
        case encipheredPINOnline = 27
        /// Byte 2 bit 6.
        case signature = 26
        /// Byte 2 bit 5.
        case encipheredPINOffline = 25
        /// Byte 2 bit 4.
        case noCVMRequired = 24
        /// Byte 3 bit 8.
        case sda = 38
        /// Byte 3 bit 7.
        case dda = 37
        /// Byte 3 bit 6.
        case cardCapture = 36
        /// Byte 3 bit 4.
        case cda = 34

        /// The capability, prefixed with its group as EMV Book 4 names it.
        public var description: String {
            switch self {
            case .manualKeyEntry: "Card data input: manual key entry"
            case .magneticStripe: "Card data input: magnetic stripe"
            case .icWithContacts: "Card data input: IC with contacts"
            case .plaintextPINForICC: "CVM: plaintext PIN for ICC verification"
            case .encipheredPINOnline: "CVM: enciphered PIN for online verification"
            case .signature: "CVM: signature (paper)"
            case .encipheredPINOffline: "CVM: enciphered PIN for offline verification"
            case .noCVMRequired: "CVM: no CVM required"
            case .sda: "Security: SDA"
            case .dda: "Security: DDA"
            case .cardCapture: "Security: card capture"
            case .cda: "Security: CDA"
            }
        }
    }
}
