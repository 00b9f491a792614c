/// The path of every gateway route, as templates with `{name}` placeholders (the syntax of
/// OpenAPI and of Hummingbird's router), and helpers that fill them in.
///
/// Every path but ``health`` starts with ``GatewayAPIInfo/pathPrefix`` (`/v1`).
public enum GatewayPaths {
    // MARK: Service

    /// `GET`: liveness; answers `{"status":"ok"}` with no authentication.
    public static let health = "/health"
    /// `GET`: this API's OpenAPI document (YAML).
    public static let openAPI = "/v1/openapi.yaml"

    // MARK: Accounts and sessions

    /// `POST` ``LoginRequest`` → ``Session``.
    public static let login = "/v1/auth/login"
    /// `POST` (Bearer access token) → 204: ends the session.
    public static let logout = "/v1/auth/logout"
    /// `POST` ``ForgotUserIDRequest`` → 202 ``Acknowledgement``: mails the user id.
    public static let forgotUserID = "/v1/auth/forgot-user-id"
    /// `POST` ``ResetPasswordRequest`` → 202 ``Acknowledgement``: mails a temporary password.
    public static let resetPassword = "/v1/auth/reset-password"
    /// `POST` ``ChangePasswordRequest`` (Bearer access token) → ``Acknowledgement``.
    public static let changePassword = "/v1/auth/change-password"
    /// `GET` → ``MerchantInfo`` of the caller.
    public static let merchant = "/v1/merchant"
    /// `GET` (Bearer or `X-API-Key`) → ``OutboxList``: the sandbox's sent e-mails and SMS.
    public static let outbox = "/v1/outbox"
    /// `POST` (`X-API-Key`, optional ``ClientTokenRequest`` body) → 201 ``ClientToken``.
    public static let clientTokens = "/v1/client-tokens"
    /// `POST` (`X-API-Key` of the sandbox's first merchant, optional ``CreateMerchantRequest``
    /// body) → 201 ``MerchantCredentials`` of a new merchant.
    public static let merchants = "/v1/merchants"

    // MARK: Payments

    /// `POST` ``AuthorizeCardRequest`` (`Idempotency-Key`) → ``Transaction``.
    public static let authorizeCard = "/v1/payments/card"
    /// `POST` ``CashPaymentRequest`` (`Idempotency-Key`) → ``Transaction``.
    public static let cashPayment = "/v1/payments/cash"
    /// `POST` ``SEPAPaymentRequest`` (`Idempotency-Key`) → ``Transaction``.
    public static let sepaPayment = "/v1/payments/sepa"
    /// `GET` → the stored response of the request made with that idempotency key, byte for
    /// byte and with its status, or 404 ``GatewayErrorCode/notFound``.
    public static let attempt = "/v1/attempts/{key}"
    /// `GET` → ``Transaction``.
    public static let transaction = "/v1/transactions/{id}"
    /// `POST` ``CaptureRequest`` (`Idempotency-Key`) → ``Transaction`` (the capture).
    public static let capture = "/v1/transactions/{id}/capture"
    /// `POST` ``TipAdjustRequest`` (`Idempotency-Key`) → ``Transaction``.
    public static let tipAdjust = "/v1/transactions/{id}/tip"
    /// `POST` ``VoidRequest`` (`Idempotency-Key`) → ``Transaction`` (the void).
    public static let void = "/v1/transactions/{id}/void"
    /// `POST` ``ReverseRequest`` (`Idempotency-Key`) → ``Transaction`` (the original, now
    /// reversed).
    public static let reverse = "/v1/transactions/{id}/reverse"
    /// `POST` ``RefundRequest`` (`Idempotency-Key`) → ``Transaction`` (the refund).
    public static let refund = "/v1/transactions/{id}/refund"
    /// `GET` → ``ReceiptData``.
    public static let receipt = "/v1/transactions/{id}/receipt"
    /// `POST` ``SendReceiptRequest`` → 202 ``Acknowledgement``.
    public static let sendReceipt = "/v1/transactions/{id}/receipt/send"
    /// `POST` (`Idempotency-Key`) → ``Batch``: closes the open settlement batch.
    public static let closeBatch = "/v1/batches/close"

    // MARK: Reporting

    /// `POST` ``TransactionSearchRequest`` → ``TransactionPage``.
    public static let searchTransactions = "/v1/transactions/search"
    /// `POST` ``StatisticsRequest`` → ``StatisticsResponse``.
    public static let statistics = "/v1/statistics"
    /// `PUT` ``InventoryUploadRequest`` → ``InventoryVersion``; `GET` → ``InventoryDocument``.
    public static let inventory = "/v1/inventory"
    /// `GET` → ``InventoryVersion`` (404 when none was uploaded).
    public static let inventoryVersion = "/v1/inventory/version"
    /// `GET` → ``WebhookConfigResponse``; `PUT` ``WebhookConfig`` → ``WebhookConfigResponse``.
    public static let webhookConfig = "/v1/webhooks/config"
    /// `GET` → ``WebhookDeliveryList``.
    public static let webhookDeliveries = "/v1/webhooks/deliveries"

    // MARK: Terminal management
    /// Registers a reader and answers its pending updates.
    public static let terminalInitialize = "/v1/terminals/initialize"
    /// Records an install a reader confirmed.
    public static let terminalInstalls = "/v1/terminals/installs"
    /// The update catalogue: publish (API key), list (token).
    public static let updates = "/v1/updates"
    /// One image's bytes; answers `Range` requests with 206.
    public static let updateFile = "/v1/updates/{id}/file"

    // MARK: Filling templates

    /// `template` with each `{name}` replaced by the percent-encoded value from `values`.
    ///
    /// ```swift
    /// GatewayPaths.filling(GatewayPaths.capture, ["id": "tx_1"])  // "/v1/transactions/tx_1/capture"
    /// ```
    public static func filling(_ template: String, _ values: [String: String]) -> String {
        var result = template
        for (name, value) in values {
            result = result.replacingPlaceholder("{\(name)}", with: percentEncodePathSegment(value))
        }
        return result
    }

    /// The path of ``transaction`` (or any `{id}` template) for one transaction.
    public static func transaction(_ template: String = transaction, id: String) -> String {
        filling(template, ["id": id])
    }

    /// The path of ``attempt`` for one idempotency key.
    public static func attempt(key: String) -> String { filling(attempt, ["key": key]) }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    public static func percentEncodePathSegment(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}

extension String {
    fileprivate func replacingPlaceholder(_ placeholder: String, with value: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: placeholder) {
            result += rest[..<range.lowerBound]
            result += value
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}
