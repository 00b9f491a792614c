/// Additional Terminal Capabilities (tag `9F40`, 5 bytes): the transaction types the
/// terminal offers and its data input and output capabilities, coded as in EMV Book 4
/// Annex A3.
public struct AdditionalTerminalCapabilities: Sendable, Hashable {
    /// The five value bytes.
    public let bytes: [UInt8]

    /// Decodes an Additional Terminal Capabilities value; throws unless it is exactly 5 bytes.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(5))
        self.bytes = bytes
    }

    /// Whether `flag` is set.
    public func contains(_ flag: Flag) -> Bool { flag.isSet(in: bytes) }

    /// Every set flag, in bit order.
    public var flags: [Flag] { flagsSet(Flag.self, in: bytes) }

    /// The code tables (1 to 10, ISO/IEC 8859 parts) the terminal can print or display.
    public var codeTables: [Int] {
        flags.compactMap { flag in
            switch flag.byte {
            case 5: flag.bit
            case 4 where flag.bit <= 2: flag.bit + 8
            default: nil
            }
        }.sorted()
    }

    /// One sentence per set bit; reserved bits that are set are named too.
    public var statements: [String] {
        flags.map(\.description) + reservedBitStatements(Flag.self, in: bytes)
    }

    /// The defined bits. Raw value: byte × 10 + bit.
    public enum Flag: Int, BitFlag {
        /// Byte 1 bit 8.
        case cash = 18
        /// Byte 1 bit 7.
        case goods = 17
        /// Byte 1 bit 6.
        case services = 16
        /// Byte 1 bit 5.
        case cashback = 15
        /// Byte 1 bit 4.
        case inquiry = 14
        /// Byte 1 bit 3.
        case transfer = 13
        /// Byte 1 bit 2.
        case payment = 12
        /// Byte 1 bit 1.
        case administrative = 11
        /// Byte 2 bit 8.
        case cashDeposit = 28
        /// Byte 3 bit 8.
        case numericKeys = 38
        /// Byte 3 bit 7.
        case alphabeticAndSpecialKeys = 37
        /// Byte 3 bit 6.
        case commandKeys = 36
        /// Byte 3 bit 5.
        case functionKeys = 35
        /// Byte 4 bit 8.
        case printAttendant = 48
        /// Byte 4 bit 7.
        case printCardholder = 47
        /// Byte 4 bit 6.
        case displayAttendant = 46
        /// Byte 4 bit 5.
        case displayCardholder = 45
        /// Byte 4 bit 2.
        case codeTable10 = 42
        /// Byte 4 bit 1.
        case codeTable9 = 41
        /// Byte 5 bit 8.
        case codeTable8 = 58
        /// Byte 5 bit 7.
        case codeTable7 = 57
        /// Byte 5 bit 6.
        case codeTable6 = 56
        /// Byte 5 bit 5.
        case codeTable5 = 55
        /// Byte 5 bit 4.
        case codeTable4 = 54
        /// Byte 5 bit 3.
        case codeTable3 = 53
        /// Byte 5 bit 2.
        case codeTable2 = 52
        /// Byte 5 bit 1.
        case codeTable1 = 51

        /// The capability, prefixed with its group as EMV Book 4 names it.
        public var description: String {
            switch self {
            case .cash: "Transaction type: cash"
            case .goods: "Transaction type: goods"
            case .services: "Transaction type: services"
            case .cashback: "Transaction type: cashback"
            case .inquiry: "Transaction type: inquiry"
            case .transfer: "Transaction type: transfer"
            case .payment: "Transaction type: payment"
            case .administrative: "Transaction type: administrative"
            case .cashDeposit: "Transaction type: cash deposit"
            case .numericKeys: "Data input: numeric keys"
            case .alphabeticAndSpecialKeys: "Data input: alphabetic and special characters keys"
            case .commandKeys: "Data input: command keys"
            case .functionKeys: "Data input: function keys"
            case .printAttendant: "Data output: print, attendant"
            case .printCardholder: "Data output: print, cardholder"
            case .displayAttendant: "Data output: display, attendant"
            case .displayCardholder: "Data output: display, cardholder"
            case .codeTable10: "Data output: code table 10"
            case .codeTable9: "Data output: code table 9"
            case .codeTable8: "Data output: code table 8"
            case .codeTable7: "Data output: code table 7"
            case .codeTable6: "Data output: code table 6"
            case .codeTable5: "Data output: code table 5"
            case .codeTable4: "Data output: code table 4"
            case .codeTable3: "Data output: code table 3"
            case .codeTable2: "Data output: code table 2"
            case .codeTable1: "Data output: code table 1"
            }
        }
    }
}
