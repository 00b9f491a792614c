/// Cryptogram Information Data (CID, tag `9F27`, 1 byte): which cryptogram the card
/// returned and whether it asks for an advice, coded as in EMV Book 3 section 6.5.5.
public struct CryptogramInformationData: Sendable, Hashable {
    /// The value byte.
    public let byte: UInt8

    /// Decodes a CID value; throws unless it is exactly 1 byte.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(1))
        self.byte = bytes[0]
    }

    /// The cryptogram type (bits 8-7).
    public var cryptogramType: CryptogramType { CryptogramType(rawValue: byte >> 6)! }

    /// Bits 6-5, which payment systems use for their own cryptogram variants.
    public var paymentSystemBits: UInt8 { (byte >> 4) & 0x03 }

    /// Whether the card asks the terminal to send an advice (bit 4).
    public var adviceRequired: Bool { byte & 0x08 != 0 }

    /// The reason or advice code (bits 3-1).
    public var reason: Reason { Reason(code: byte & 0x07) }

    /// One sentence per fact: the cryptogram, then advice and reason when present.
    public var statements: [String] {
        var out = [cryptogramType.description]
        if paymentSystemBits != 0 {
            out.append("Payment system-specific cryptogram bits 6-5 are \(paymentSystemBits >> 1)\(paymentSystemBits & 1)")
        }
        if adviceRequired { out.append("Advice required") }
        if reason != .noInformation { out.append("Reason: \(reason.description)") }
        return out
    }

    /// The type of Application Cryptogram.
    public enum CryptogramType: UInt8, Sendable, Hashable, CustomStringConvertible {
        /// `00`: Application Authentication Cryptogram, the card declines.
        case aac = 0
        /// `01`: Transaction Certificate, the card approves offline.
        case tc = 1
        /// `10`: Authorisation Request Cryptogram, the card asks to go online.
        case arqc = 2
        /// `11`: reserved for future use.
        case rfu = 3

        /// The type's name and abbreviation.
        public var description: String {
            switch self {
            case .aac: "Application Authentication Cryptogram (AAC): declined by the card"
            case .tc: "Transaction Certificate (TC): approved by the card"
            case .arqc: "Authorisation Request Cryptogram (ARQC): online authorisation requested"
            case .rfu: "Cryptogram type 11 is reserved for future use"
            }
        }
    }

    /// The reason/advice code of bits 3-1.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// `000`.
        case noInformation
        /// `001`.
        case serviceNotAllowed
        /// `010`.
        case pinTryLimitExceeded
        /// `011`.
        case issuerAuthenticationFailed
        /// `100`-`111`: reserved for future use.
        case reserved(UInt8)

        init(code: UInt8) {
            switch code {
            case 0: self = .noInformation
            case 1: self = .serviceNotAllowed
            case 2: self = .pinTryLimitExceeded
            case 3: self = .issuerAuthenticationFailed
            default: self = .reserved(code)
            }
        }

        /// The reason as EMV Book 3 words it.
        public var description: String {
            switch self {
            case .noInformation: "No information given"
            case .serviceNotAllowed: "Service not allowed"
            case .pinTryLimitExceeded: "PIN Try Limit exceeded"
            case .issuerAuthenticationFailed: "Issuer authentication failed"
            case .reserved(let code): "code \(code) is reserved for future use"
            }
        }
    }
}
