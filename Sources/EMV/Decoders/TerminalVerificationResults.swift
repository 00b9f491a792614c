/// Terminal Verification Results (TVR, tag `95`, 5 bytes): the terminal's record of what
/// went wrong or was noteworthy during the transaction, coded as in EMV Book 3 Annex C5.
///
/// ```swift
/// let tvr = try TerminalVerificationResults(Hex.decode("0000080000"))
/// tvr.contains(.pinNotEntered)   // true
/// tvr.statements                 // ["PIN entry required, PIN pad present, but PIN was not entered"]
/// ```
public struct TerminalVerificationResults: Sendable, Hashable {
    /// The five value bytes.
    public let bytes: [UInt8]

    /// Decodes a TVR value; throws unless it is exactly 5 bytes.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(5))
        self.bytes = bytes
    }

    /// Whether `flag` is set.
    public func contains(_ flag: Flag) -> Bool { flag.isSet(in: bytes) }

    /// Every set flag, byte 1 bit 8 first.
    public var flags: [Flag] { flagsSet(Flag.self, in: bytes) }

    /// The relay resistance protocol field (byte 5 bits 2-1), used by contactless kernels.
    public var relayResistance: RelayResistance { RelayResistance(rawValue: bytes[4] & 0x03)! }

    /// One sentence per set bit, in bit order; reserved bits that are set are named too.
    public var statements: [String] {
        var out = flags.map(\.description)
        if let text = relayResistance.statement { out.append(text) }
        out += reservedBitStatements(Flag.self, in: bytes, covered: [52, 51])
        return out
    }

    /// The defined TVR bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 8.
        case offlineDataAuthenticationNotPerformed = 18
        /// Byte 1 bit 7.
        case sdaFailed = 17
        /// Byte 1 bit 6.
        case iccDataMissing = 16
        /// Byte 1 bit 5.
        case cardOnExceptionFile = 15
        /// Byte 1 bit 4.
        case ddaFailed = 14
        /// Byte 1 bit 3.
        case cdaFailed = 13
        /// Byte 1 bit 2.
        case sdaSelected = 12
        /// Byte 2 bit 8.
        case differentApplicationVersions = 28
        /// Byte 2 bit 7.
        case expiredApplication = 27
        /// Byte 2 bit 6.
        case applicationNotYetEffective = 26
        /// Byte 2 bit 5.
        case serviceNotAllowed = 25
        /// Byte 2 bit 4.
        case newCard = 24
        /// Byte 3 bit 8.
        case cardholderVerificationFailed = 38
        /// Byte 3 bit 7.
        case unrecognisedCVM = 37
        /// Byte 3 bit 6.
        case pinTryLimitExceeded = 36
        /// Byte 3 bit 5.
        case pinPadMissing = 35
        /// Byte 3 bit 4.
        case pinNotEntered = 34
        /// Byte 3 bit 3.
        case onlinePINEntered = 33
        /// Byte 4 bit 8.
        case exceedsFloorLimit = 48
        /// Byte 4 bit 7.
        case lowerConsecutiveOfflineLimitExceeded = 47
        /// Byte 4 bit 6.
        case upperConsecutiveOfflineLimitExceeded = 46
        /// Byte 4 bit 5.
        case selectedRandomlyForOnline = 45
        /// Byte 4 bit 4.
        case merchantForcedOnline = 44
        /// Byte 5 bit 8.
        case defaultTDOLUsed = 58
        /// Byte 5 bit 7.
        case issuerAuthenticationFailed = 57
        /// Byte 5 bit 6.
        case scriptFailedBeforeFinalGenerateAC = 56
        /// Byte 5 bit 5.
        case scriptFailedAfterFinalGenerateAC = 55
        /// Byte 5 bit 4 (contactless kernels).
        case relayResistanceThresholdExceeded = 54
        /// Byte 5 bit 3 (contactless kernels).
        case relayResistanceTimeLimitsExceeded = 53

        /// The bit's meaning as EMV Book 3 words it.
        public var description: String {
            switch self {
            case .offlineDataAuthenticationNotPerformed: "Offline data authentication was not performed"
            case .sdaFailed: "SDA failed"
            case .iccDataMissing: "ICC data missing"
            case .cardOnExceptionFile: "Card appears on terminal exception file"
            case .ddaFailed: "DDA failed"
            case .cdaFailed: "CDA failed"
            case .sdaSelected: "SDA selected"
            case .differentApplicationVersions: "ICC and terminal have different application versions"
            case .expiredApplication: "Expired application"
            case .applicationNotYetEffective: "Application not yet effective"
            case .serviceNotAllowed: "Requested service not allowed for card product"
            case .newCard: "New card"
            case .cardholderVerificationFailed: "Cardholder verification was not successful"
            case .unrecognisedCVM: "Unrecognised CVM"
            case .pinTryLimitExceeded: "PIN Try Limit exceeded"
            case .pinPadMissing: "PIN entry required and PIN pad not present or not working"
            case .pinNotEntered: "PIN entry required, PIN pad present, but PIN was not entered"
            case .onlinePINEntered: "Online PIN entered"
            case .exceedsFloorLimit: "Transaction exceeds floor limit"
            case .lowerConsecutiveOfflineLimitExceeded: "Lower consecutive offline limit exceeded"
            case .upperConsecutiveOfflineLimitExceeded: "Upper consecutive offline limit exceeded"
            case .selectedRandomlyForOnline: "Transaction selected randomly for online processing"
            case .merchantForcedOnline: "Merchant forced transaction online"
            case .defaultTDOLUsed: "Default TDOL used"
            case .issuerAuthenticationFailed: "Issuer authentication failed"
            case .scriptFailedBeforeFinalGenerateAC: "Script processing failed before final GENERATE AC"
            case .scriptFailedAfterFinalGenerateAC: "Script processing failed after final GENERATE AC"
            case .relayResistanceThresholdExceeded: "Relay resistance threshold exceeded"
            case .relayResistanceTimeLimitsExceeded: "Relay resistance time limits exceeded"
            }
        }
    }

    /// Byte 5 bits 2-1: whether the relay resistance protocol ran (contactless kernels).
    public enum RelayResistance: UInt8, Sendable, Hashable {
        /// `00`: the protocol is not supported (also every contact transaction).
        case notSupported = 0
        /// `01`: supported, but not performed.
        case notPerformed = 1
        /// `10`: performed.
        case performed = 2
        /// `11`: reserved for future use.
        case reserved = 3

        /// A sentence for the non-default values; `nil` for ``notSupported``.
        var statement: String? {
            switch self {
            case .notSupported: nil
            case .notPerformed: "Relay resistance protocol not performed"
            case .performed: "Relay resistance protocol performed"
            case .reserved: "Relay resistance field is 11, which is reserved for future use"
            }
        }
    }
}
