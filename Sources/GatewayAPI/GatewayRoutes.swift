/// How a route authenticates its caller.
public enum GatewayAuthentication: String, Sendable, Hashable, Codable, CaseIterable {
    /// No credentials.
    case none
    /// `Authorization: Bearer` with a user's access token (from login) only.
    case accessToken
    /// `Authorization: Bearer` with an access token or a client token.
    case bearer
    /// `X-API-Key` only.
    case apiKey
    /// `Authorization: Bearer` (either kind of token) or `X-API-Key`.
    case bearerOrAPIKey
}

/// One route of the gateway: method, path template and authentication.
public struct GatewayRoute: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method, upper case (`"GET"`, `"POST"`, `"PUT"`, `"DELETE"`).
    public let method: String
    /// The path template, with `{name}` placeholders; see ``GatewayPaths``.
    public let path: String
    /// The credentials the route accepts.
    public let authentication: GatewayAuthentication
    /// Whether the route requires an `Idempotency-Key` header.
    public let requiresIdempotencyKey: Bool
    /// Whether the route reads a JSON body.
    public let hasJSONBody: Bool

    /// Describes a route.
    public init(
        _ method: String, _ path: String, authentication: GatewayAuthentication,
        idempotent: Bool = false, body: Bool = false
    ) {
        self.method = method
        self.path = path
        self.authentication = authentication
        self.requiresIdempotencyKey = idempotent
        self.hasJSONBody = body
    }

    /// `"METHOD path"`, such as `"POST /v1/auth/login"`.
    public var description: String { "\(method) \(path)" }
}

/// Every route of the gateway, in one list: the server registers from it, the OpenAPI
/// document lists the same, and a test checks the three agree.
public enum GatewayRoutes {
    // MARK: Service
    /// `GET /health`
    public static let health = GatewayRoute("GET", GatewayPaths.health, authentication: .none)
    /// `GET /v1/openapi.yaml`
    public static let openAPI = GatewayRoute("GET", GatewayPaths.openAPI, authentication: .none)

    // MARK: Accounts
    /// `POST /v1/auth/login`
    public static let login = GatewayRoute("POST", GatewayPaths.login, authentication: .none, body: true)
    /// `POST /v1/auth/logout`
    public static let logout = GatewayRoute("POST", GatewayPaths.logout, authentication: .accessToken)
    /// `POST /v1/auth/forgot-user-id`
    public static let forgotUserID = GatewayRoute(
        "POST", GatewayPaths.forgotUserID, authentication: .none, body: true)
    /// `POST /v1/auth/reset-password`
    public static let resetPassword = GatewayRoute(
        "POST", GatewayPaths.resetPassword, authentication: .none, body: true)
    /// `POST /v1/auth/change-password`
    public static let changePassword = GatewayRoute(
        "POST", GatewayPaths.changePassword, authentication: .accessToken, body: true)
    /// `GET /v1/merchant`
    public static let merchant = GatewayRoute("GET", GatewayPaths.merchant, authentication: .bearer)
    /// `GET /v1/outbox`
    public static let outbox = GatewayRoute("GET", GatewayPaths.outbox, authentication: .bearerOrAPIKey)
    /// `POST /v1/client-tokens`
    public static let mintClientToken = GatewayRoute(
        "POST", GatewayPaths.clientTokens, authentication: .apiKey, body: true)
    /// `POST /v1/merchants`
    public static let createMerchant = GatewayRoute(
        "POST", GatewayPaths.merchants, authentication: .apiKey, body: true)

    // MARK: Payments
    /// `POST /v1/payments/card`
    public static let authorizeCard = GatewayRoute(
        "POST", GatewayPaths.authorizeCard, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/payments/cash`
    public static let cashPayment = GatewayRoute(
        "POST", GatewayPaths.cashPayment, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/payments/sepa`
    public static let sepaPayment = GatewayRoute(
        "POST", GatewayPaths.sepaPayment, authentication: .bearer, idempotent: true, body: true)
    /// `GET /v1/attempts/{key}`
    public static let attempt = GatewayRoute("GET", GatewayPaths.attempt, authentication: .bearer)
    /// `GET /v1/transactions/{id}`
    public static let transaction = GatewayRoute("GET", GatewayPaths.transaction, authentication: .bearer)
    /// `POST /v1/transactions/{id}/capture`
    public static let capture = GatewayRoute(
        "POST", GatewayPaths.capture, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/transactions/{id}/tip`
    public static let tipAdjust = GatewayRoute(
        "POST", GatewayPaths.tipAdjust, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/transactions/{id}/void`
    public static let void = GatewayRoute(
        "POST", GatewayPaths.void, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/transactions/{id}/reverse`
    public static let reverse = GatewayRoute(
        "POST", GatewayPaths.reverse, authentication: .bearer, idempotent: true, body: true)
    /// `POST /v1/transactions/{id}/refund`
    public static let refund = GatewayRoute(
        "POST", GatewayPaths.refund, authentication: .bearer, idempotent: true, body: true)
    /// `GET /v1/transactions/{id}/receipt`
    public static let receipt = GatewayRoute("GET", GatewayPaths.receipt, authentication: .bearer)
    /// `POST /v1/transactions/{id}/receipt/send`
    public static let sendReceipt = GatewayRoute(
        "POST", GatewayPaths.sendReceipt, authentication: .bearer, body: true)
    /// `POST /v1/batches/close`
    public static let closeBatch = GatewayRoute(
        "POST", GatewayPaths.closeBatch, authentication: .bearer, idempotent: true)

    // MARK: Reporting
    /// `POST /v1/transactions/search`
    public static let searchTransactions = GatewayRoute(
        "POST", GatewayPaths.searchTransactions, authentication: .bearer, body: true)
    /// `POST /v1/statistics`
    public static let statistics = GatewayRoute(
        "POST", GatewayPaths.statistics, authentication: .bearer, body: true)
    /// `PUT /v1/inventory`
    public static let uploadInventory = GatewayRoute(
        "PUT", GatewayPaths.inventory, authentication: .bearer, body: true)
    /// `GET /v1/inventory`
    public static let downloadInventory = GatewayRoute("GET", GatewayPaths.inventory, authentication: .bearer)
    /// `GET /v1/inventory/version`
    public static let inventoryVersion = GatewayRoute(
        "GET", GatewayPaths.inventoryVersion, authentication: .bearer)
    /// `GET /v1/webhooks/config`
    public static let getWebhookConfig = GatewayRoute(
        "GET", GatewayPaths.webhookConfig, authentication: .bearer)
    /// `PUT /v1/webhooks/config`
    public static let putWebhookConfig = GatewayRoute(
        "PUT", GatewayPaths.webhookConfig, authentication: .bearer, body: true)
    /// `GET /v1/webhooks/deliveries`
    public static let webhookDeliveries = GatewayRoute(
        "GET", GatewayPaths.webhookDeliveries, authentication: .bearer)

    // MARK: Terminal management
    /// `POST /v1/terminals/initialize`
    public static let terminalInitialize = GatewayRoute(
        "POST", GatewayPaths.terminalInitialize, authentication: .bearer, body: true)
    /// `POST /v1/terminals/installs`
    public static let terminalInstalls = GatewayRoute(
        "POST", GatewayPaths.terminalInstalls, authentication: .bearer, body: true)
    /// `GET /v1/updates`
    public static let listUpdates = GatewayRoute("GET", GatewayPaths.updates, authentication: .bearer)
    /// `POST /v1/updates` (the body is the image's bytes, not JSON)
    public static let publishUpdate = GatewayRoute("POST", GatewayPaths.updates, authentication: .apiKey)
    /// `GET /v1/updates/{id}/file`
    public static let updateFile = GatewayRoute("GET", GatewayPaths.updateFile, authentication: .bearer)

    /// The service and account routes (served by the gateway core).
    public static let core: [GatewayRoute] = [
        health, openAPI, login, logout, forgotUserID, resetPassword, changePassword, merchant,
        outbox, mintClientToken, createMerchant, attempt,
    ]

    /// The payment routes.
    public static let payments: [GatewayRoute] = [
        authorizeCard, cashPayment, sepaPayment, transaction, capture, tipAdjust, void, reverse,
        refund, receipt, sendReceipt, closeBatch,
    ]

    /// The reporting routes.
    public static let reporting: [GatewayRoute] = [
        searchTransactions, statistics, uploadInventory, downloadInventory, inventoryVersion,
        getWebhookConfig, putWebhookConfig, webhookDeliveries,
    ]

    /// The terminal-management routes: reader registration, installs and the update catalogue.
    public static let terminalManagement: [GatewayRoute] = [
        terminalInitialize, terminalInstalls, listUpdates, publishUpdate, updateFile,
    ]

    /// Every route.
    public static let all: [GatewayRoute] = core + payments + reporting + terminalManagement
}
