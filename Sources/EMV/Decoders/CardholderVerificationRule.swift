/// One CV Rule of a CVM List: a method, what to do if it fails, and when it applies.
public struct CardholderVerificationRule: Sendable, Hashable {
    /// The first byte: bit 7 is the failure action, bits 6-1 the method.
    public let methodByte: UInt8
    /// The second byte: the condition code.
    public let conditionByte: UInt8

    /// Creates a rule from its two bytes.
    public init(methodByte: UInt8, conditionByte: UInt8) {
        self.methodByte = methodByte
        self.conditionByte = conditionByte
    }

    /// The verification method.
    public var method: CardholderVerificationMethod { CardholderVerificationMethod(code: methodByte) }

    /// Whether the terminal moves to the next rule when this method fails (bit 7 set);
    /// otherwise cardholder verification fails.
    public var appliesNextRuleOnFailure: Bool { methodByte & 0x40 != 0 }

    /// When the rule applies.
    public var condition: CVMCondition { CVMCondition(code: conditionByte) }

    /// The rule in one sentence: "Enciphered PIN verified online, if terminal supports the
    /// CVM; if unsuccessful, apply the next rule". `x` and `y` are the formatted amounts of
    /// the CVM List, used by conditions 06-09.
    public func statement(x: String? = nil, y: String? = nil) -> String {
        let failure = appliesNextRuleOnFailure ? "apply the next rule" : "fail cardholder verification"
        let reserved = methodByte & 0x80 != 0 ? " (reserved bit 8 is set)" : ""
        return "\(method.description), \(condition.phrase(x: x, y: y)); if unsuccessful, \(failure)\(reserved)"
    }
}
