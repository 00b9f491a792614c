import Foundation
import GatewayAPI
import Hummingbird
import NIOCore

/// Reads the whole body of `request`, at most `context.bodyLimit` bytes, and keeps it in
/// the request so that the context's decoder can read it again.
///
/// Idempotent routes need the bytes as received (their hash identifies the request) as well
/// as the decoded value.
///
/// - Throws: 4130 when the body is larger than the limit (by `Content-Length` or by what
///   arrives).
public func readBody(_ request: inout Request, context: GatewayRequestContext) async throws -> Data {
    let limit = context.bodyLimit
    if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
        throw GatewayError(code: GatewayErrorCode.bodyTooLarge, "The body exceeds \(limit) bytes.")
    }
    do {
        return Data(try await request.collectBody(upTo: limit).readableBytesView)
    } catch is NIOTooManyBytesError {
        throw GatewayError(code: GatewayErrorCode.bodyTooLarge, "The body exceeds \(limit) bytes.")
    }
}

/// Decodes the JSON body of `request` as `T` with the context's ``GatewayRequestContext/requestDecoder``.
///
/// Never answers 5xx for a client's mistake: an oversized body is 4130; invalid JSON, a
/// value of the wrong type, `null` where a value is required or a missing field is 4000; a
/// value that parses but is not allowed where a type validates itself (an unknown currency
/// or enum case, a date that is not ISO 8601) is 4001. The message names the field path and
/// what was expected there, never the value (``RequestDecoding``); only broken JSON syntax
/// is called "not valid JSON".
///
/// - Parameter emptyAs: what an empty body means (`"{}"` on routes whose fields are all
///   optional); `nil` makes an empty body 4000.
/// - Returns: the value and the body's bytes as received, for the idempotency hash.
@discardableResult
public func decodeBody<T: Decodable>(
    _ request: inout Request, context: GatewayRequestContext, as type: T.Type = T.self, emptyAs: String? = nil
) async throws -> (value: T, body: Data) {
    let body = try await readBody(&request, context: context)
    if body.isEmpty {
        guard let emptyAs else { throw GatewayError.malformed("A JSON body is required.") }
        request.body = .init(buffer: ByteBuffer(string: emptyAs))
    }
    do {
        return (try await context.requestDecoder.decode(T.self, from: request, context: context), body)
    } catch let error as DecodingError {
        throw RequestDecoding.decodingError(error, body: body.isEmpty ? Data((emptyAs ?? "").utf8) : body)
    } catch let error as GatewayError {
        throw error
    } catch {
        throw GatewayError.malformed("The body is not valid JSON.")
    }
}

/// Decodes the JSON body of `request` as `T`; see ``decodeBody(_:context:as:emptyAs:)``.
public func decodeBody<T: Decodable>(
    _ request: Request, context: GatewayRequestContext, as type: T.Type = T.self
) async throws -> T {
    var request = request
    return try await decodeBody(&request, context: context, as: T.self).value
}

/// Decodes the JSON body of `request` as the request type `endpoint` declares, as
/// ``decodeBody(_:context:as:emptyAs:)`` does, so a handler reads the type of the contract.
@discardableResult
public func decodeBody<Input: Decodable, Output>(
    _ request: inout Request, context: GatewayRequestContext, for endpoint: GatewayEndpoint<Input, Output>,
    emptyAs: String? = nil
) async throws -> (value: Input, body: Data) {
    try await decodeBody(&request, context: context, as: Input.self, emptyAs: emptyAs)
}

/// Decodes the JSON body of `request` as the request type `endpoint` declares, when the
/// handler needs neither the raw bytes nor the request again.
public func decodeBody<Input: Decodable, Output>(
    _ request: Request, context: GatewayRequestContext, for endpoint: GatewayEndpoint<Input, Output>
) async throws -> Input {
    try await decodeBody(request, context: context, as: Input.self)
}

/// JSON responses from bytes already encoded: the answers idempotent routes store and replay
/// byte for byte, and error bodies. A route that answers with a value uses
/// ``GatewayRequestContext/respond(to:with:status:)``, which writes it with the context's
/// ``GatewayRequestContext/responseEncoder``; both use the one shared `GatewayJSON.encoder`.
public enum GatewayResponse {
    /// Encodes `value` as the JSON body with the encoder every route shares.
    public static func jsonData<T: Encodable>(_ value: T) throws -> Data {
        try GatewayJSON.encoder.encode(value)
    }

    /// A response with `data` as an `application/json` body.
    public static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentLength] = String(data.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The error body of `error`.
    public static func error(_ error: GatewayError) -> Response {
        // Encoding an error body cannot fail in practice; a fixed 5000 body stands in if it does.
        let data = (try? jsonData(error.body)) ?? Data(#"{"code":5000,"message":"Internal error."}"#.utf8)
        var response = json(data, status: error.status)
        if let seconds = error.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
        return response
    }

    /// 204 with no body.
    public static func noContent() -> Response { Response(status: .noContent) }
}

/// A header field name (HTTPTypes' `HTTPField.Name`, reached through Hummingbird's exports).
public typealias HTTPFieldName = HTTPFields.Element.Name
