/// Every endpoint of the gateway, each declared once with its method, path, authentication,
/// idempotency and body types. The sandbox gateway registers its routes from these, the SDK's
/// client sends through them, the OpenAPI document lists the same, and tests check that all
/// agree.
public enum GatewayRoutes {
    // MARK: Service
    /// Liveness; answers `{"status":"ok"}` with no authentication.
    public static let health = GatewayEndpoint<GatewayNoBody, HealthStatus>(
        .get, "/health", authentication: .none)
    /// This API's OpenAPI document (YAML).
    public static let openAPI = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/openapi.yaml", authentication: .none)

    // MARK: Accounts and sessions
    /// Logs a merchant user in.
    public static let login = GatewayEndpoint<LoginRequest, Session>(
        .post, "/v1/auth/login", authentication: .none)
    /// Ends the session (answers 204).
    public static let logout = GatewayEndpoint<GatewayNoBody, GatewayNoBody>(
        .post, "/v1/auth/logout", authentication: .accessToken)
    /// Mails the user id (answers 202).
    public static let forgotUserID = GatewayEndpoint<ForgotUserIDRequest, Acknowledgement>(
        .post, "/v1/auth/forgot-user-id", authentication: .none)
    /// Mails a temporary password (answers 202).
    public static let resetPassword = GatewayEndpoint<ResetPasswordRequest, Acknowledgement>(
        .post, "/v1/auth/reset-password", authentication: .none)
    /// Changes the caller's password.
    public static let changePassword = GatewayEndpoint<ChangePasswordRequest, Acknowledgement>(
        .post, "/v1/auth/change-password", authentication: .accessToken)
    /// The caller's merchant.
    public static let merchant = GatewayEndpoint<GatewayNoBody, MerchantInfo>(
        .get, "/v1/merchant", authentication: .bearer)
    /// The sandbox's sent e-mails and SMS.
    public static let outbox = GatewayEndpoint<GatewayNoBody, OutboxList>(
        .get, "/v1/outbox", authentication: .bearerOrAPIKey)
    /// Mints a client token (answers 201); the body is optional.
    public static let mintClientToken = GatewayEndpoint<ClientTokenRequest, ClientToken>(
        .post, "/v1/client-tokens", authentication: .apiKey)
    /// Adds a merchant, with the API key of the sandbox's first merchant (answers 201); the
    /// body is optional.
    public static let createMerchant = GatewayEndpoint<CreateMerchantRequest, MerchantCredentials>(
        .post, "/v1/merchants", authentication: .apiKey)

    // MARK: Payments
    /// Authorizes a card payment.
    public static let authorizeCard = GatewayEndpoint<AuthorizeCardRequest, Transaction>(
        .post, "/v1/payments/card", authentication: .bearer, idempotent: true)
    /// Records a cash payment.
    public static let cashPayment = GatewayEndpoint<CashPaymentRequest, Transaction>(
        .post, "/v1/payments/cash", authentication: .bearer, idempotent: true)
    /// Takes a SEPA direct debit.
    public static let sepaPayment = GatewayEndpoint<SEPAPaymentRequest, Transaction>(
        .post, "/v1/payments/sepa", authentication: .bearer, idempotent: true)
    /// The stored answer of the request made with idempotency key `{key}`, byte for byte and
    /// with its status, or 404 ``GatewayErrorCode/notFound``.
    public static let attempt = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/attempts/{key}", authentication: .bearer)
    /// One transaction.
    public static let transaction = GatewayEndpoint<GatewayNoBody, Transaction>(
        .get, "/v1/transactions/{id}", authentication: .bearer)
    /// Captures an authorisation; answers the capture.
    public static let capture = GatewayEndpoint<CaptureRequest, Transaction>(
        .post, "/v1/transactions/{id}/capture", authentication: .bearer, idempotent: true)
    /// Sets a sale's tip; answers the sale.
    public static let tipAdjust = GatewayEndpoint<TipAdjustRequest, Transaction>(
        .post, "/v1/transactions/{id}/tip", authentication: .bearer, idempotent: true)
    /// Voids a transaction; answers the void.
    public static let void = GatewayEndpoint<VoidRequest, Transaction>(
        .post, "/v1/transactions/{id}/void", authentication: .bearer, idempotent: true)
    /// Reverses a transaction; answers the original, now reversed.
    public static let reverse = GatewayEndpoint<ReverseRequest, Transaction>(
        .post, "/v1/transactions/{id}/reverse", authentication: .bearer, idempotent: true)
    /// Refunds a sale; answers the refund.
    public static let refund = GatewayEndpoint<RefundRequest, Transaction>(
        .post, "/v1/transactions/{id}/refund", authentication: .bearer, idempotent: true)
    /// A transaction's receipt data.
    public static let receipt = GatewayEndpoint<GatewayNoBody, ReceiptData>(
        .get, "/v1/transactions/{id}/receipt", authentication: .bearer)
    /// Sends a receipt by e-mail or SMS (answers 202).
    public static let sendReceipt = GatewayEndpoint<SendReceiptRequest, Acknowledgement>(
        .post, "/v1/transactions/{id}/receipt/send", authentication: .bearer)
    /// Stores the cardholder's signature image of an approved transaction (a PNG; a new one
    /// replaces it).
    public static let uploadSignature = GatewayEndpoint<SignatureImage, Acknowledgement>(
        .put, "/v1/transactions/{id}/signature", authentication: .bearer)
    /// The cardholder's signature image of a transaction.
    public static let signature = GatewayEndpoint<GatewayNoBody, SignatureImage>(
        .get, "/v1/transactions/{id}/signature", authentication: .bearer)
    /// Closes the open settlement batch.
    public static let closeBatch = GatewayEndpoint<GatewayNoBody, Batch>(
        .post, "/v1/batches/close", authentication: .bearer, idempotent: true)

    // MARK: Reporting
    /// Searches transactions.
    public static let searchTransactions = GatewayEndpoint<TransactionSearchRequest, TransactionPage>(
        .post, "/v1/transactions/search", authentication: .bearer)
    /// Sums transactions.
    public static let statistics = GatewayEndpoint<StatisticsRequest, StatisticsResponse>(
        .post, "/v1/statistics", authentication: .bearer)
    /// Replaces the inventory.
    public static let uploadInventory = GatewayEndpoint<InventoryUploadRequest, InventoryVersion>(
        .put, "/v1/inventory", authentication: .bearer)
    /// The inventory.
    public static let downloadInventory = GatewayEndpoint<GatewayNoBody, InventoryDocument>(
        .get, "/v1/inventory", authentication: .bearer)
    /// The inventory's version (404 when none was uploaded).
    public static let inventoryVersion = GatewayEndpoint<GatewayNoBody, InventoryVersion>(
        .get, "/v1/inventory/version", authentication: .bearer)
    /// The webhook configuration.
    public static let getWebhookConfig = GatewayEndpoint<GatewayNoBody, WebhookConfigResponse>(
        .get, "/v1/webhooks/config", authentication: .bearer)
    /// Replaces the webhook configuration.
    public static let putWebhookConfig = GatewayEndpoint<WebhookConfig, WebhookConfigResponse>(
        .put, "/v1/webhooks/config", authentication: .bearer)
    /// The webhook deliveries.
    public static let webhookDeliveries = GatewayEndpoint<GatewayNoBody, WebhookDeliveryList>(
        .get, "/v1/webhooks/deliveries", authentication: .bearer)

    // MARK: Terminal management
    /// Registers a reader and answers its pending updates.
    public static let terminalInitialize = GatewayEndpoint<
        TerminalInitializeRequest, TerminalInitializeResponse
    >(
        .post, "/v1/terminals/initialize", authentication: .bearer)
    /// Records an install a reader confirmed.
    public static let terminalInstalls = GatewayEndpoint<InstallConfirmation, TerminalInitializeResponse>(
        .post, "/v1/terminals/installs", authentication: .bearer)
    /// The update catalogue.
    public static let listUpdates = GatewayEndpoint<GatewayNoBody, UpdateCatalogue>(
        .get, "/v1/updates", authentication: .bearer)
    /// Publishes an update (answers 201); the body is the image's bytes, described by the
    /// query.
    public static let publishUpdate = GatewayEndpoint<GatewayBytes, UpdateImage>(
        .post, "/v1/updates", authentication: .apiKey)
    /// One image's bytes; answers `Range` requests with 206.
    public static let updateFile = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/updates/{id}/file", authentication: .bearer)

    /// The service and account routes (served by the gateway core).
    public static let core: [GatewayRoute] = [
        health.route, openAPI.route, login.route, logout.route, forgotUserID.route, resetPassword.route,
        changePassword.route, merchant.route, outbox.route, mintClientToken.route, createMerchant.route,
        attempt.route,
    ]

    /// The payment routes.
    public static let payments: [GatewayRoute] = [
        authorizeCard.route, cashPayment.route, sepaPayment.route, transaction.route, capture.route,
        tipAdjust.route, void.route, reverse.route, refund.route, receipt.route, sendReceipt.route,
        uploadSignature.route, signature.route, closeBatch.route,
    ]

    /// The reporting routes.
    public static let reporting: [GatewayRoute] = [
        searchTransactions.route, statistics.route, uploadInventory.route, downloadInventory.route,
        inventoryVersion.route, getWebhookConfig.route, putWebhookConfig.route, webhookDeliveries.route,
    ]

    /// The terminal-management routes: reader registration, installs and the update catalogue.
    public static let terminalManagement: [GatewayRoute] = [
        terminalInitialize.route, terminalInstalls.route, listUpdates.route, publishUpdate.route,
        updateFile.route,
    ]

    /// Every route.
    public static let all: [GatewayRoute] = core + payments + reporting + terminalManagement
}
