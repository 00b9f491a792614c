import Foundation

/// Refuses JSON keys that match a Terminal API field name except in upper and lower case
/// (`messageheader` for `MessageHeader`): Codable would ignore them as unknown and then report
/// a missing field, or drop an optional one silently.
enum FieldCasing {
    static func check(_ value: Any, path: [String]) throws(NexoError) {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let known = NexoFieldNames.byLowercase[key.lowercased()], known != key {
                    throw NexoError(
                        .wrongCase, field: DecodingErrorMapping.join(path + [known]),
                        message: "field \"\(key)\" must be spelled \"\(known)\"")
                }
                try check(object[key]!, path: path + [key])
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                var indexed = path
                indexed[indexed.count - 1] += "[\(index)]"
                try check(element, path: indexed)
            }
        }
    }
}

/// Turns Foundation's decoding errors into `NexoError`s with nexo field paths.
enum DecodingErrorMapping {
    static func nexoError(_ error: DecodingError) -> NexoError {
        switch error {
        case .keyNotFound(let key, let context):
            return NexoError(
                .missingField, field: path(context.codingPath + [key]),
                message: "mandatory field \(key.stringValue) is missing")
        case .valueNotFound(_, let context):
            return NexoError(
                .missingField, field: path(context.codingPath), message: "mandatory field is null")
        case .typeMismatch(let type, let context):
            return NexoError(
                .invalidValue, field: path(context.codingPath), message: "expected \(kind(of: type))")
        case .dataCorrupted(let context):
            if context.debugDescription.hasPrefix("Cannot initialize") {
                return NexoError(
                    .unknownValue, field: path(context.codingPath),
                    message: "not a value nexo defines for this field")
            }
            if context.codingPath.isEmpty {
                return NexoError(.notJSON, message: "not JSON")
            }
            return NexoError(
                .invalidValue, field: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            return NexoError(.invalidValue, message: "\(error)")
        }
    }

    /// `A.B[0].C` from a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var parts: [String] = []
        for key in keys {
            if let index = key.intValue, !parts.isEmpty {
                parts[parts.count - 1] += "[\(index)]"
            } else {
                parts.append(key.stringValue)
            }
        }
        return join(parts)
    }

    static func join(_ parts: [String]) -> String { parts.joined(separator: ".") }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Decimal.Type: "a number"
        default: "a JSON \(type)"
        }
    }
}
