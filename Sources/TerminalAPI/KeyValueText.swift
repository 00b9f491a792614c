import Foundation

/// The two ways Adyen packs extra data into one JSON string (`SaleToAcquirerData`,
/// `AdditionalResponse`): URL-encoded `name=value&name=value`, or base64 of a JSON object.
public enum KeyValueForm: String, Sendable, Hashable {
    /// `name=value&name=value`, percent-encoded (`+` also reads as a space).
    case urlEncoded
    /// Base64 of a JSON object; nested objects are read as `outer.inner` names, and an
    /// `additionalData` object's entries by their own names.
    case base64JSON
}

/// One name and value of a key-value string, in the order sent.
public struct KeyValueField: Sendable, Hashable {
    /// The name, decoded.
    public let name: String
    /// The value, decoded.
    public let value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The parsed form of a key-value string: shared by `SaleToAcquirerData` and
/// `AdditionalResponse`, which differ only in the names they give typed accessors to.
struct KeyValueText: Sendable, Hashable {
    let text: String
    let form: KeyValueForm
    let fields: [KeyValueField]

    /// Reads either form. Text that is neither (Adyen's mock terminal writes placeholders
    /// such as `.*`) is kept as text with the fields it has: pieces without `=` are skipped.
    init(text: String) {
        self.text = text
        if let json = Self.base64JSON(text) {
            self.form = .base64JSON
            self.fields = json
        } else {
            self.form = .urlEncoded
            self.fields = text.split(separator: "&", omittingEmptySubsequences: true).compactMap { piece in
                guard let equals = piece.firstIndex(of: "=") else { return nil }
                return KeyValueField(
                    name: Self.unescape(piece[..<equals]),
                    value: Self.unescape(piece[piece.index(after: equals)...]))
            }
        }
    }

    /// Writes `fields` in `form`.
    init(fields: [KeyValueField], form: KeyValueForm) {
        self.form = form
        self.fields = fields
        switch form {
        case .urlEncoded:
            self.text = fields.map { Self.escape($0.name) + "=" + Self.escape($0.value) }.joined(
                separator: "&")
        case .base64JSON:
            var object: [String: String] = [:]
            for field in fields { object[field.name] = field.value }
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
                ?? Data("{}".utf8)
            self.text = data.base64EncodedString()
        }
    }

    func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    private static func base64JSON(_ text: String) -> [KeyValueField]? {
        guard !text.isEmpty, !text.contains("&"), let data = Data(base64Encoded: text),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        var fields: [KeyValueField] = []
        func flatten(_ object: [String: Any], prefix: String) {
            for key in object.keys.sorted() {
                let name = prefix.isEmpty || prefix == "additionalData" ? key : prefix + "." + key
                switch object[key] {
                case let nested as [String: Any]: flatten(nested, prefix: prefix.isEmpty ? key : name)
                case let string as String: fields.append(KeyValueField(name: name, value: string))
                case let number as NSNumber:
                    fields.append(KeyValueField(name: name, value: number.stringValue))
                default: continue
                }
            }
        }
        flatten(object, prefix: "")
        return fields
    }

    private static let unreserved = CharacterSet(
        charactersIn:
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func unescape(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
