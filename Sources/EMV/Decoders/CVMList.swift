/// Cardholder Verification Method (CVM) List (tag `8E`): amounts X and Y, then the CV
/// Rules in the order the terminal tries them, coded as in EMV Book 3 section 10.5.
///
/// X and Y are binary amounts in the application currency (`9F42`), without a decimal point.
public struct CVMList: Sendable, Hashable {
    /// Amount X (bytes 1-4), in minor units of the application currency.
    public let amountX: UInt32
    /// Amount Y (bytes 5-8), in minor units of the application currency.
    public let amountY: UInt32
    /// The CV Rules, first to try first.
    public let rules: [CardholderVerificationRule]

    /// Decodes a CVM List; throws when it is shorter than 8 bytes or the rules do not
    /// come in whole 2-byte pairs.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .range(8...252))
        guard (bytes.count - 8) % 2 == 0 else {
            throw .invalidValue("CV Rules are 2 bytes each, but \(bytes.count - 8) bytes follow amounts X and Y")
        }
        amountX = bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) }
        amountY = bytes[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
        rules = stride(from: 8, to: bytes.count, by: 2).map {
            CardholderVerificationRule(methodByte: bytes[$0], conditionByte: bytes[$0 + 1])
        }
    }

    /// Statements with amounts written in minor units.
    public var statements: [String] { statements(currencyExponent: nil, currencyCode: nil) }

    /// The amounts, then one sentence per rule. With the application currency's exponent
    /// (and code) the amounts read as money ("10.00 EUR").
    public func statements(currencyExponent: Int?, currencyCode: String?) -> [String] {
        let x = describe(amountX, exponent: currencyExponent, code: currencyCode)
        let y = describe(amountY, exponent: currencyExponent, code: currencyCode)
        var out = ["Amount X is \(x)", "Amount Y is \(y)"]
        if rules.isEmpty { out.append("The list holds no CV Rules") }
        out += rules.map { $0.statement(x: x, y: y) }
        return out
    }

    private func describe(_ amount: UInt32, exponent: Int?, code: String?) -> String {
        guard let exponent else { return "\(amount) (minor units of the application currency)" }
        let text = EMVAmount(minorUnits: Int64(amount)).formatted(exponent: exponent)
        return code.map { "\(text) \($0)" } ?? text
    }
}
