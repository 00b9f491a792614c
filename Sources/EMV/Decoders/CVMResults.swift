/// Cardholder Verification Method (CVM) Results (tag `9F34`, 3 bytes): the method the
/// terminal performed last, the condition under which it applied, and its result, coded as
/// in EMV Book 3 Annex A.
///
/// `1E0002` reads: signature (paper), always, successful.
public struct CVMResults: Sendable, Hashable {
    /// The three value bytes.
    public let bytes: [UInt8]

    /// Decodes a CVM Results value; throws unless it is exactly 3 bytes.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(3))
        self.bytes = bytes
    }

    /// The method performed (byte 1, bits 6-1); `.noCVMPerformed` for `3F`.
    public var method: CardholderVerificationMethod { CardholderVerificationMethod(code: bytes[0]) }

    /// Whether the rule performed allowed moving to the next rule on failure (byte 1 bit 7).
    public var appliesNextRuleOnFailure: Bool { bytes[0] & 0x40 != 0 }

    /// The condition of the rule performed (byte 2).
    public var condition: CVMCondition { CVMCondition(code: bytes[1]) }

    /// The outcome (byte 3).
    public var result: Result { Result(code: bytes[2]) }

    /// Three sentences: method, condition, result.
    public var statements: [String] {
        let phrase = condition.phrase()
        return [
            "CVM performed: \(method.description)",
            "Condition: \(phrase.prefix(1).uppercased() + phrase.dropFirst())",
            "Result: \(result.description)",
        ]
    }

    /// The CVM result code.
    public enum Result: Sendable, Hashable, CustomStringConvertible {
        /// `00`: unknown, as for signature until the merchant checks it.
        case unknown
        /// `01`: failed.
        case failed
        /// `02`: successful.
        case successful
        /// Any other value: not defined by EMV.
        case undefined(UInt8)

        /// Reads a result code.
        public init(code: UInt8) {
            switch code {
            case 0: self = .unknown
            case 1: self = .failed
            case 2: self = .successful
            default: self = .undefined(code)
            }
        }

        /// Lower-case word.
        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .failed: "failed"
            case .successful: "successful"
            case .undefined(let code): "code \(Hex.encode([code])), which EMV does not define"
            }
        }
    }
}
