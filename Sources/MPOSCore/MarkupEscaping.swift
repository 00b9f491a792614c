/// Escaping for text placed in HTML or XML, shared by the receipts, the device-info XML and
/// the gateway's dashboard so that all three escape the same five characters the same way.
public enum MarkupEscaping {
    /// `text` with `& < > " '` replaced by entities: safe as element content and inside a
    /// quoted attribute value.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
