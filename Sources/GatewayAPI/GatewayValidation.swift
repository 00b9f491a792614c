/// The value rules of the gateway API, shared so that the SDK can reject a bad request
/// before it reaches the network and the gateway applies exactly the same rules.
public enum GatewayValidation {
    /// The longest statement descriptor, suffix included.
    public static let statementDescriptorMaximumLength = 22
    /// The longest external id.
    public static let externalIDMaximumLength = 50
    /// Characters a statement descriptor may not contain.
    public static let forbiddenDescriptorCharacters: Set<Character> = ["<", ">", "\"", "'"]

    /// Whether `text` is a non-empty, even-length string of hex digits.
    public static func isHex(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count % 2 == 0
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    true
                default: false
                }
            }
    }

    /// The problem with a statement descriptor and its suffix, or `nil` when they are valid.
    ///
    /// The rules apply to the text the gateway stores (see ``statementDescriptor(_:suffix:)``):
    /// non-ASCII characters are removed and spaces at either end trimmed first, as the ECP
    /// rules say the gateway does. What remains of the descriptor has 1...22 characters, at
    /// least one letter A–Z and none of `< > " '` or ASCII control characters; the suffix has
    /// none of those characters either, and `descriptor + "* " + suffix` has at most 22 characters. A suffix that is
    /// empty once normalized counts as no suffix. Checking the normalized text is what keeps
    /// the SDK, which calls this before any I/O, from accepting a descriptor the gateway
    /// then refuses (or the reverse). The message names the field and never echoes the text.
    public static func statementDescriptorProblem(_ descriptor: String?, suffix: String?) -> String? {
        let parts = normalizedDescriptor(descriptor, suffix: suffix)
        guard let base = parts.base else {
            return parts.suffix == nil ? nil : "statementDescriptorSuffix needs a statementDescriptor"
        }
        if base.isEmpty || base.count > statementDescriptorMaximumLength {
            return "statementDescriptor must have 1 to \(statementDescriptorMaximumLength) characters "
                + "once non-ASCII characters and spaces at either end are removed"
        }
        if !base.contains(where: \.isLetter) {
            return "statementDescriptor must contain at least one ASCII letter"
        }
        if hasForbiddenCharacter(base) {
            return "statementDescriptor may not contain < > \" ' or control characters"
        }
        if let tail = parts.suffix {
            if hasForbiddenCharacter(tail) {
                return "statementDescriptorSuffix may not contain < > \" ' or control characters"
            }
            if base.count + 2 + tail.count > statementDescriptorMaximumLength {
                return "statementDescriptor with its suffix ('* ' + suffix) exceeds "
                    + "\(statementDescriptorMaximumLength) characters"
            }
        }
        return nil
    }

    /// The statement descriptor the gateway stores and the cardholder's statement shows:
    /// `BASE* SUFFIX` (or `BASE` without a suffix), upper case, with non-ASCII characters
    /// removed and spaces at either end trimmed from each part; `nil` when there is no
    /// descriptor.
    ///
    /// It applies the same normalization as ``statementDescriptorProblem(_:suffix:)`` but does
    /// not check the rules: call that first and use this only for text it accepts.
    public static func statementDescriptor(_ descriptor: String?, suffix: String?) -> String? {
        let parts = normalizedDescriptor(descriptor, suffix: suffix)
        guard let base = parts.base else { return nil }
        let full = parts.suffix.map { base + "* " + $0 } ?? base
        return full.uppercased()
    }

    /// Whether `text` has one of `< > " '` or an ASCII control character (a line break or a
    /// tab inside the text): none of them belongs on a card statement.
    private static func hasForbiddenCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F || forbiddenDescriptorCharacters.contains(Character(scalar))
        }
    }

    /// A descriptor and suffix as the gateway keeps them: ASCII characters only, then spaces
    /// and tabs at either end trimmed. `base` is `nil` only when no descriptor was given (it
    /// may be empty); `suffix` is `nil` when none was given or nothing is left of it.
    private static func normalizedDescriptor(_ descriptor: String?, suffix: String?)
        -> (base: String?, suffix: String?)
    {
        func normalized(_ text: String) -> String {
            // A UTF-8 byte below 0x80 is an ASCII scalar; every byte of a longer scalar is above.
            let ascii = text.utf8.filter { $0 < 0x80 }
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = ascii.firstIndex(where: { !isBlank($0) }),
                let last = ascii.lastIndex(where: { !isBlank($0) })
            else { return "" }
            return String(decoding: ascii[first...last], as: UTF8.self)
        }
        let tail = suffix.map(normalized)
        return (descriptor.map(normalized), tail?.isEmpty == false ? tail : nil)
    }

    /// Whether an external id is 1...50 characters, counted as Unicode scalars (as the OpenAPI
    /// document's maxLength counts them).
    public static func isValidExternalID(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.count <= externalIDMaximumLength
    }

    /// Whether a masked PAN shows at most the first 6 and last 4 digits: 12...19 characters
    /// of digits and mask characters (`*`, `X`, `x`), with at most 10 digits.
    public static func isMaskedPAN(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (12...19).contains(bytes.count) else { return false }
        var digits = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "*"), UInt8(ascii: "X"), UInt8(ascii: "x"): break
            default: return false
            }
        }
        return digits <= 10
    }
}
