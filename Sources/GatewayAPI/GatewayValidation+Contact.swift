extension GatewayValidation {
    /// The longest e-mail address (RFC 5321's path limit), in Unicode scalars.
    public static let emailMaximumLength = 254

    /// The e-mail rule as the regular expression docs/gateway-openapi.yaml states: a local part
    /// and a domain of dot-separated labels (at least two), none of them empty, and no `@`,
    /// space, ASCII control character or DEL anywhere. ``isEmailAddress(_:)`` applies exactly
    /// this, so a schema-driven client and the gateway agree on every string.
    public static let emailPattern = #"^[^\x00-\x20@\x7f]+@[^\x00-\x20@\x7f.]+(\.[^\x00-\x20@\x7f.]+)+$"#

    /// The phone rule as the document states it: 6 to 15 ASCII digits (E.164's limit), with
    /// `+`, space, `(`, `)` and `-` allowed anywhere between them.
    public static let phonePattern = #"^[+ ()-]*([0-9][+ ()-]*){6,15}$"#

    /// Whether `text` is an e-mail address by ``emailPattern`` and at most
    /// ``emailMaximumLength`` scalars long. No surrounding space is trimmed.
    public static func isEmailAddress(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count <= emailMaximumLength,
            let at = scalars.firstIndex(of: "@"), at > 0
        else { return false }
        func allowed(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value > 0x20 && scalar != "@" && scalar.value != 0x7F
        }
        guard scalars[..<at].allSatisfy(allowed) else { return false }
        let labels = scalars[(at + 1)...].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(allowed) }
    }

    /// Whether `text` is a phone number by ``phonePattern``.
    public static func isPhoneNumber(_ text: String) -> Bool {
        var digits = 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9": digits += 1
            case "+", " ", "(", ")", "-": continue
            default: return false
            }
        }
        return (6...15).contains(digits)
    }
}
