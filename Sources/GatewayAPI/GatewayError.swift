/// The body of every non-2xx gateway response: a stable numeric code and a message for the
/// developer. Messages never contain card data or echo secrets.
public struct GatewayErrorBody: Codable, Sendable, Hashable, Error, CustomStringConvertible {
    /// A code from ``GatewayErrorCode``; stable once released.
    public let code: Int
    /// What went wrong, for the developer and the logs.
    public let message: String

    /// Creates an error body.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// `GatewayError <code>: <message>`.
    public var description: String { "GatewayError \(code): \(message)" }
}

/// The stable error codes of the gateway. The first three digits are the HTTP status the
/// code is sent with; the last digit tells cases of that status apart.
public enum GatewayErrorCode {
    /// 400: the body is not JSON, has a value of the wrong type, or lacks a required field.
    public static let malformedJSON = 4000
    /// 400: a field or parameter is well-formed but its value is not allowed (amount ≤ 0,
    /// unknown currency, descriptor with a forbidden character, page size out of range).
    public static let invalidValue = 4001
    /// 400: a required header is missing or malformed (such as `Idempotency-Key`).
    public static let invalidHeader = 4002
    /// 400: the new password does not meet the policy or its confirmation differs.
    public static let passwordPolicy = 4003
    /// 400: a webhook or callback URL's host resolves to an address the gateway may not post
    /// to: link-local or cloud metadata (always), private or loopback (unless the gateway was
    /// started with `--allow-webhooks-to`), or it does not resolve.
    public static let webhookDestinationRefused = 4006
    /// 401: no credentials, unknown or expired token, wrong user or password.
    public static let unauthorized = 4010
    /// 401: the access or client token has expired; log in or mint a new one.
    public static let tokenExpired = 4011
    /// 401: the current password given to change it is wrong (the session itself is valid).
    public static let wrongPassword = 4014
    /// 401: the user is locked for 30 minutes after 10 failed logins in a row (PCI DSS 8.3.4);
    /// the right password is refused too until then. A password reset lifts the lock.
    public static let locked = 4013
    /// 403: the credentials are valid but may not use this route (a client token on an
    /// account route).
    public static let forbidden = 4030
    /// 403: the credentials are valid but their kind does not carry the route's
    /// ``GatewayScope`` (a client token on the outbox or the webhook configuration).
    public static let insufficientScope = 4031
    /// 404: no such resource for this merchant (transaction, attempt, inventory).
    public static let notFound = 4040
    /// 404: no route matches the method and path.
    public static let noSuchRoute = 4041
    /// 405: the path names a route but not with this method; the `Allow` header lists the
    /// methods it takes.
    public static let methodNotAllowed = 4050
    /// 409: the idempotency key was used before with a different request body.
    public static let idempotencyConflict = 4090
    /// 409: a request with this idempotency key is still being processed; retry later.
    public static let idempotencyInProgress = 4091
    /// 409: the transaction's state does not allow the operation (void of a refunded sale,
    /// capture beyond the authorised amount, second batch close with nothing open).
    public static let invalidState = 4092
    /// 409: a duplicate payment was detected (same amount, card and reference within the
    /// duplicate-check window) while `duplicateCheck` is on.
    public static let duplicatePayment = 4093
    /// 413: the body exceeds the gateway's limit (64 KiB by default).
    public static let bodyTooLarge = 4130
    /// 415: the body is not `application/json` where JSON is required.
    public static let unsupportedMediaType = 4150
    /// 416: the `Range` of a download starts past the file's end; `Content-Range` gives its size.
    public static let rangeNotSatisfiable = 4160
    /// 422: the request is well-formed but fails a business rule before any authorisation
    /// (such as a refund larger than what remains, card data that cannot be decrypted).
    public static let declinedValidation = 4220
    /// 422: the reader the card was read on is past an update's deadline and its grace period
    /// (the TSM seed's deactivated terminal): no payment is taken on it until it installs the
    /// update (`POST /v1/terminals/initialize` lists what is pending). Nothing was charged.
    public static let terminalDeactivated = 4221
    /// 429: too many requests, such as failed logins from one address; `Retry-After` says
    /// how many seconds to wait.
    public static let tooManyRequests = 4290
    /// 500: an unexpected error in the gateway; nothing was charged unless an attempt lookup
    /// says otherwise.
    public static let internalError = 5000
    /// 503: the gateway is shutting down or its database is unavailable.
    public static let unavailable = 5030

    /// The HTTP status a code is sent with: its first three digits (4013 → 401).
    public static func httpStatus(for code: Int) -> Int {
        let status = code / 10
        return (400...599).contains(status) ? status : 500
    }
}
