import EMV
import Foundation

/// What the developer log may show of a gateway exchange: secrets and card data replaced by
/// `[REDACTED]` before any text reaches a `LogHandler`.
enum LogRedaction {
    static let mark = "[REDACTED]"

    /// Header fields whose value is a credential.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// JSON keys whose value is a credential or card data (the reader's ciphertext and EMV
    /// data included: the log is no place to collect them).
    static let secretKeys: Set<String> = [
        "password", "oldpassword", "newpassword", "token", "accesstoken", "refreshtoken", "clienttoken",
        "secret", "emvdata", "encryptedcarddata", "ksn", "pan", "cardnumber", "track1", "track2",
        "cvv", "cvc", "pin", "pinblock",
    ]

    /// The headers with every credential's value replaced.
    static func headers(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, field in
            result[field.key] = secretHeaders.contains(field.key.lowercased()) ? mark : field.value
        }
    }

    /// A body as text: JSON with the secret keys' values replaced at any depth, then any run of
    /// 13–19 digits that passes the Luhn check masked, whatever key or text it hides in.
    static func body(_ data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        var text: String
        // A body that is not JSON is kept as text; its card numbers are still masked below.
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let cleaned = try? JSONSerialization.data(
                withJSONObject: redacted(object), options: [.sortedKeys, .fragmentsAllowed])
        {
            text = String(decoding: cleaned, as: UTF8.self)
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        return maskingCardNumbers(text)
    }

    static func redacted(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.reduce(into: [String: Any]()) { result, field in
                result[field.key] = secretKeys.contains(field.key.lowercased()) ? mark : redacted(field.value)
            }
        }
        if let array = value as? [Any] { return array.map(redacted) }
        return value
    }

    /// `text` with every Luhn-valid run of 13 to 19 digits cut to its first six and last four.
    static func maskingCardNumbers(_ text: String) -> String {
        var output = ""
        var run = ""
        func flush() {
            if (13...19).contains(run.count), PAN.luhnCheck(run) {
                output += run.prefix(6) + String(repeating: "*", count: run.count - 10) + run.suffix(4)
            } else {
                output += run
            }
            run = ""
        }
        for character in text {
            if character.isASCII, character.isNumber {
                run.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}
