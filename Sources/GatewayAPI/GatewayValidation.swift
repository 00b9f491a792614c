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

    /// The problem with a statement descriptor and its suffix, or `nil` when they are valid:
    /// the descriptor has 1...22 characters, at least one letter, none of `< > " '`; the
    /// suffix has none of those characters either, and `descriptor + "* " + suffix` has at
    /// most 22 characters.
    public static func statementDescriptorProblem(_ descriptor: String?, suffix: String?) -> String? {
        guard let descriptor else {
            return suffix == nil ? nil : "statementDescriptorSuffix needs a statementDescriptor"
        }
        if descriptor.isEmpty || descriptor.count > statementDescriptorMaximumLength {
            return "statementDescriptor must have 1 to \(statementDescriptorMaximumLength) characters"
        }
        if !descriptor.contains(where: \.isLetter) {
            return "statementDescriptor must contain at least one letter"
        }
        if descriptor.contains(where: forbiddenDescriptorCharacters.contains) {
            return "statementDescriptor may not contain < > \" or '"
        }
        if let suffix {
            if suffix.contains(where: forbiddenDescriptorCharacters.contains) {
                return "statementDescriptorSuffix may not contain < > \" or '"
            }
            if descriptor.count + 2 + suffix.count > statementDescriptorMaximumLength {
                return "statementDescriptor with its suffix ('* ' + suffix) exceeds \(statementDescriptorMaximumLength) characters"
            }
        }
        return nil
    }

    /// Whether an external id is 1...50 characters.
    public static func isValidExternalID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= externalIDMaximumLength
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
