import Foundation
import GatewayAPI
import Hummingbird

/// An error a route throws to answer with a ``GatewayErrorBody``: its HTTP status follows
/// from the code (``GatewayErrorCode/httpStatus(for:)``).
///
/// Messages are sent to the client and logged: never put card data, passwords, tokens or
/// raw request text in them.
public struct GatewayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body sent.
    public let body: GatewayErrorBody
    /// Whole seconds to wait before trying again, sent as `Retry-After` (429 answers).
    public var retryAfterSeconds: Int?

    /// An error with a code from ``GatewayErrorCode`` and a message.
    public init(code: Int, _ message: String) {
        self.body = GatewayErrorBody(code: code, message: message)
    }

    /// 4290 with `Retry-After`: `seconds`, rounded up, must pass before the next try.
    public static func tooManyRequests(_ message: String, retryAfter seconds: TimeInterval) -> GatewayError {
        var error = GatewayError(code: GatewayErrorCode.tooManyRequests, message)
        error.retryAfterSeconds = max(1, Int(seconds.rounded(.up)))
        return error
    }

    /// The HTTP status.
    public var status: HTTPResponse.Status {
        .init(code: GatewayErrorCode.httpStatus(for: body.code))
    }

    /// `GatewayError <code>: <message>`.
    public var description: String { body.description }

    /// 4000.
    public static func malformed(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.malformedJSON, message) }
    /// 4001.
    public static func invalid(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.invalidValue, message) }
    /// 4002.
    public static func invalidHeader(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.invalidHeader, message) }
    /// 4006.
    public static func webhookDestinationRefused(_ message: String) -> GatewayError {
        .init(code: GatewayErrorCode.webhookDestinationRefused, message)
    }
    /// 4010.
    public static func unauthorized(_ message: String = "Authentication required.") -> GatewayError {
        .init(code: GatewayErrorCode.unauthorized, message)
    }
    /// 4031: the credential's kind does not carry the route's scope.
    public static func insufficientScope(_ message: String) -> GatewayError {
        .init(code: GatewayErrorCode.insufficientScope, message)
    }
    /// 4030.
    public static func forbidden(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.forbidden, message) }
    /// 4040.
    public static func notFound(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.notFound, message) }
    /// 4092.
    public static func invalidState(_ message: String) -> GatewayError { .init(code: GatewayErrorCode.invalidState, message) }
    /// 4220.
    public static func declinedValidation(_ message: String) -> GatewayError {
        .init(code: GatewayErrorCode.declinedValidation, message)
    }
    /// 5000.
    public static func internalError(_ message: String = "Internal error.") -> GatewayError {
        .init(code: GatewayErrorCode.internalError, message)
    }
}
