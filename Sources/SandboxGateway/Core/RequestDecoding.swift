import Foundation
import GatewayAPI

/// The decoder of request bodies and the wording of what it refuses.
///
/// Foundation's JSONDecoder on Linux reports an invalid ISO 8601 date, and a number that does
/// not fit the field's integer type, as "not valid JSON" with no coding path; the date
/// strategy here and ``decodingError(_:body:)`` restore the path so a client learns which
/// field is wrong, and only broken JSON syntax is called invalid JSON.
enum RequestDecoding {
    /// `GatewayJSON`'s decoder, with the same RFC 3339 dates (``GatewayTimestamp``) read by a
    /// strategy that tells a null and a wrong type apart, keeping the field's path in its errors.
    static let decoder: JSONDecoder = {
        let decoder = GatewayJSON.makeDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                throw DecodingError.valueNotFound(
                    Date.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "Expected a date string."))
            }
            // Not a string is the 4000 thrown below, with the field's path.
            guard let text = try? container.decode(String.self) else {
                throw DecodingError.typeMismatch(
                    Date.self,
                    .init(codingPath: decoder.codingPath, debugDescription: "Expected a date string."))
            }
            guard let date = GatewayTimestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Expected an RFC 3339 date-time with fields in range, such as 2026-11-23T09:00:00Z."
                )
            }
            return date
        }
        return decoder
    }()

    /// The gateway error for a `DecodingError` of `body`: the field path and what was
    /// expected there, never the offending value.
    static func decodingError(_ error: DecodingError, body: Data?) -> GatewayError {
        switch error {
        case .typeMismatch(let type, let context):
            return .malformed("Wrong type at \(path(context.codingPath)): expected \(describe(type)).")
        case .valueNotFound(let type, let context):
            return .malformed(
                "null is not allowed at \(path(context.codingPath)): expected \(describe(type)).")
        case .keyNotFound(let key, let context):
            return .malformed("Missing field \(path(context.codingPath + [key])).")
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return .invalid("Invalid value at \(path(context.codingPath)): \(reason(context)).")
        case .dataCorrupted:
            return rootError(body: body)
        @unknown default:
            return .malformed("The body could not be decoded.")
        }
    }

    /// A path-less failure: broken syntax, or (the decoder's only other path-less report) a
    /// number that is not a whole 64-bit integer where the field wants one.
    private static func rootError(body: Data?) -> GatewayError {
        guard let body else { return .malformed("The body could not be decoded.") }
        // Not JSON at all is the answer below: malformed.
        guard let tree = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return .malformed("The body is not valid JSON.") }
        var suspects: [[any CodingKey]] = []
        collectNonIntegers(tree, at: [], into: &suspects)
        guard !suspects.isEmpty else { return .malformed("A value in the body has the wrong type.") }
        let places = suspects.map { path($0) }.sorted().joined(separator: " or ")
        return .malformed("Wrong type at \(places): expected a whole number of at most 64 bits.")
    }

    /// Paths of the numbers in `value` that no `Int64` holds exactly.
    private static func collectNonIntegers(
        _ value: Any, at path: [any CodingKey], into paths: inout [[any CodingKey]]
    ) {
        if let object = value as? [String: Any] {
            for (key, item) in object { collectNonIntegers(item, at: path + [Key(key)], into: &paths) }
        } else if let array = value as? [Any] {
            for (index, item) in array.enumerated() {
                collectNonIntegers(item, at: path + [Key(index)], into: &paths)
            }
        } else if let number = value as? NSNumber, Int64(exactly: number) == nil {
            paths.append(path)
        }
    }

    /// `'basket.items[0].name'`, or "the body" for the top level.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "the body" : "'\(text)'"
    }

    /// What a JSON client must send for `type`, in JSON's words.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Date.Type: "a date string"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type, is Float.Type: "a number"
        case is any FixedWidthInteger.Type: "a whole number"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "a value of another type"
        }
    }

    /// Why a value was refused, from the decoder's fixed texts only: a refused value is
    /// never echoed.
    private static func reason(_ context: DecodingError.Context) -> String {
        // Our own descriptions (dates, currencies) say what was expected without echoing the
        // value; the standard library's enum message quotes the value, so it is replaced.
        let text = context.debugDescription
        guard text.hasPrefix("Expected an RFC 3339") || text.hasPrefix("Not an active ISO 4217") else {
            return "not one of the allowed values"
        }
        return text.prefix(1).lowercased() + text.dropFirst().dropLast(text.hasSuffix(".") ? 1 : 0)
    }

    /// A coding key built from a JSON object key or array index.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init(_ index: Int) {
            stringValue = "Index \(index)"
            intValue = index
        }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { self.init(intValue) }
    }
}
