import Foundation
import GatewayAPI
import Hummingbird

/// Reads the whole body of `request`, at most `context.bodyLimit` bytes.
///
/// - Throws: 4130 when the body is larger than the limit (by `Content-Length` or by what
///   arrives).
public func readBody(_ request: Request, context: GatewayRequestContext) async throws -> Data {
    let limit = context.bodyLimit
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
        throw GatewayError(code: GatewayErrorCode.bodyTooLarge, "The body exceeds \(limit) bytes.")
    }
    var collected = Data()
    for try await buffer in request.body {
        if collected.count + buffer.readableBytes > limit {
            throw GatewayError(code: GatewayErrorCode.bodyTooLarge, "The body exceeds \(limit) bytes.")
        }
        collected.append(contentsOf: buffer.readableBytesView)
    }
    return collected
}

/// Decodes a JSON body as `T` with ``GatewayJSON`` conventions.
///
/// Never answers 5xx for a client's mistake: an oversized body is 4130; invalid JSON, a
/// value of the wrong type or a missing field is 4000; a value that parses but is not
/// allowed where a type validates itself (an unknown currency or enum case) is 4001. The
/// message names the field path, never its content.
public func decodeBody<T: Decodable>(
    _ request: Request, context: GatewayRequestContext, as type: T.Type = T.self
) async throws -> T {
    let data = try await readBody(request, context: context)
    return try decodeJSON(T.self, from: data)
}

/// Decodes `data` as `T`, mapping `DecodingError` to 4000/4001 as ``decodeBody(_:context:as:)``.
public func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws(GatewayError) -> T {
    if data.isEmpty {
        throw .malformed("A JSON body is required.")
    }
    do {
        return try GatewayJSON.makeDecoder().decode(T.self, from: data)
    } catch let error as DecodingError {
        throw mapDecodingError(error)
    } catch {
        throw .malformed("The body is not valid JSON.")
    }
}

/// The gateway error for a `DecodingError`: the field path and the kind of problem, never
/// the offending value.
func mapDecodingError(_ error: DecodingError) -> GatewayError {
    func path(_ codingPath: [any CodingKey]) -> String {
        let text = codingPath.map { key in
            key.intValue.map { "[\($0)]" } ?? key.stringValue
        }.joined(separator: ".")
        return text.isEmpty ? "the body" : "'\(text)'"
    }
    switch error {
    case .typeMismatch(let type, let context):
        return .malformed("Wrong type at \(path(context.codingPath)): expected \(type).")
    case .valueNotFound(let type, let context):
        return .malformed("Missing value at \(path(context.codingPath)): expected \(type).")
    case .keyNotFound(let key, let context):
        return .malformed("Missing field '\(key.stringValue)' in \(path(context.codingPath)).")
    case .dataCorrupted(let context):
        if context.codingPath.isEmpty {
            return .malformed("The body is not valid JSON.")
        }
        return .invalid("Invalid value at \(path(context.codingPath)).")
    @unknown default:
        return .malformed("The body could not be decoded.")
    }
}

/// JSON responses with ``GatewayJSON`` conventions.
public enum GatewayResponse {
    /// Encodes `value` as the JSON body.
    public static func jsonData<T: Encodable>(_ value: T) throws -> Data {
        try GatewayJSON.makeEncoder().encode(value)
    }

    /// A response with `data` as an `application/json` body.
    public static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = String(data.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A response with `value` encoded as the JSON body.
    public static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        json(try jsonData(value), status: status)
    }

    /// The error body of `error`.
    public static func error(_ error: GatewayError) -> Response {
        let data = (try? jsonData(error.body)) ?? Data(#"{"code":5000,"message":"Internal error."}"#.utf8)
        return json(data, status: error.status)
    }

    /// 204 with no body.
    public static func noContent() -> Response { Response(status: .noContent) }
}

/// A header field name (HTTPTypes' `HTTPField.Name`, reached through Hummingbird's exports).
public typealias HTTPFieldName = HTTPFields.Element.Name
