/// Every endpoint of the gateway, each declared once with its method, path, authentication,
/// idempotency and body types. The sandbox gateway registers its routes from these, the SDK's
/// client sends through them, the OpenAPI document lists the same, and tests check that all
/// agree.
public enum GatewayRoutes {
    // MARK: Service
    /// Liveness; answers `{"status":"ok"}` with no authentication.
    public static let health = GatewayEndpoint<GatewayNoBody, HealthStatus>(
        .get, "/health", authentication: .none, scope: .public)
    /// This API's OpenAPI document (YAML).
    public static let openAPI = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/openapi.yaml", authentication: .none, scope: .public)

    // MARK: Accounts and sessions
    /// Logs a merchant user in.
    public static let login = GatewayEndpoint<LoginRequest, Session>(
        .post, "/v1/auth/login", authentication: .none, scope: .public)
    /// Ends the session (answers 204).
    public static let logout = GatewayEndpoint<GatewayNoBody, GatewayNoBody>(
        .post, "/v1/auth/logout", authentication: .bearer, scope: .terminal)
    /// Opens a session with a device credential and replaces its secret; the user's password
    /// is not needed, and a user's lockout does not stop it.
    public static let deviceSession = GatewayEndpoint<DeviceSessionRequest, Session>(
        .post, "/v1/auth/device-session", authentication: .none, scope: .public)
    /// Mails the user id (answers 202).
    public static let forgotUserID = GatewayEndpoint<ForgotUserIDRequest, Acknowledgement>(
        .post, "/v1/auth/forgot-user-id", authentication: .none, scope: .public)
    /// Mails a one-time reset code to the user's e-mail address and changes nothing else
    /// (answers 202, the same whether or not the user exists).
    public static let resetPassword = GatewayEndpoint<ResetPasswordRequest, Acknowledgement>(
        .post, "/v1/auth/reset-password", authentication: .none, scope: .public)
    /// Redeems a reset code for a new password: ends the user's sessions (answers 200).
    public static let confirmPasswordReset = GatewayEndpoint<ConfirmPasswordResetRequest, Acknowledgement>(
        .post, "/v1/auth/reset-password/confirm", authentication: .none, scope: .public)
    /// Changes the caller's password and ends the caller's other sessions.
    public static let changePassword = GatewayEndpoint<ChangePasswordRequest, Acknowledgement>(
        .post, "/v1/auth/change-password", authentication: .accessToken, scope: .administration)
    /// The caller's merchant.
    public static let merchant = GatewayEndpoint<GatewayNoBody, MerchantInfo>(
        .get, "/v1/merchant", authentication: .bearer, scope: .terminal)
    /// The sandbox's sent e-mails and SMS.
    public static let outbox = GatewayEndpoint<GatewayNoBody, OutboxList>(
        .get, "/v1/outbox", authentication: .bearerOrAPIKey, scope: .administration)
    /// The merchant's security log, newest first: failed and locked logins, password resets
    /// and changes, client tokens granted, scope refusals, webhook changes.
    public static let securityEvents = GatewayEndpoint<GatewayNoBody, SecurityEventList>(
        .get, "/v1/security-events", authentication: .bearerOrAPIKey, scope: .administration)
    /// Registers the caller's device (a client token's, typically) and answers its device
    /// credential (201): the device renews its sessions with it from then on.
    public static let registerDevice = GatewayEndpoint<DeviceRegistration, DeviceCredential>(
        .post, "/v1/devices", authentication: .bearer, scope: .terminal)
    /// The merchant's registered devices, newest first.
    public static let devices = GatewayEndpoint<GatewayNoBody, DeviceList>(
        .get, "/v1/devices", authentication: .bearerOrAPIKey, scope: .administration)
    /// Revokes a device: its credential renews no session, and its sessions end (answers 204).
    public static let revokeDevice = GatewayEndpoint<GatewayNoBody, GatewayNoBody>(
        .delete, "/v1/devices/{id}", authentication: .bearerOrAPIKey, scope: .administration)
    /// Mints a client token (answers 201); the body is optional.
    public static let mintClientToken = GatewayEndpoint<ClientTokenRequest, ClientToken>(
        .post, "/v1/client-tokens", authentication: .apiKey, scope: .administration)
    /// Adds a merchant, with the API key of the sandbox's first merchant (answers 201); the
    /// body is optional.
    public static let createMerchant = GatewayEndpoint<CreateMerchantRequest, MerchantCredentials>(
        .post, "/v1/merchants", authentication: .apiKey, scope: .administration)

    // MARK: Payments
    /// Authorizes a card payment.
    public static let authorizeCard = GatewayEndpoint<AuthorizeCardRequest, Transaction>(
        .post, "/v1/payments/card", authentication: .bearer, scope: .payments, idempotent: true)
    /// Records a cash payment.
    public static let cashPayment = GatewayEndpoint<CashPaymentRequest, Transaction>(
        .post, "/v1/payments/cash", authentication: .bearer, scope: .payments, idempotent: true)
    /// Takes a SEPA direct debit.
    public static let sepaPayment = GatewayEndpoint<SEPAPaymentRequest, Transaction>(
        .post, "/v1/payments/sepa", authentication: .bearer, scope: .payments, idempotent: true)
    /// The stored answer of the request made with idempotency key `{key}`, byte for byte and
    /// with its status, or 404 ``GatewayErrorCode/notFound``.
    public static let attempt = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/attempts/{key}", authentication: .bearer, scope: .payments)
    /// One transaction.
    public static let transaction = GatewayEndpoint<GatewayNoBody, Transaction>(
        .get, "/v1/transactions/{id}", authentication: .bearer, scope: .payments)
    /// Captures an authorisation; answers the capture.
    public static let capture = GatewayEndpoint<CaptureRequest, Transaction>(
        .post, "/v1/transactions/{id}/capture", authentication: .bearer, scope: .payments, idempotent: true)
    /// Sets a sale's tip; answers the sale.
    public static let tipAdjust = GatewayEndpoint<TipAdjustRequest, Transaction>(
        .post, "/v1/transactions/{id}/tip", authentication: .bearer, scope: .payments, idempotent: true)
    /// Voids a transaction; answers the void.
    public static let void = GatewayEndpoint<VoidRequest, Transaction>(
        .post, "/v1/transactions/{id}/void", authentication: .bearer, scope: .payments, idempotent: true)
    /// Reverses a transaction; answers the original, now reversed.
    public static let reverse = GatewayEndpoint<ReverseRequest, Transaction>(
        .post, "/v1/transactions/{id}/reverse", authentication: .bearer, scope: .payments, idempotent: true)
    /// Refunds a sale; answers the refund.
    public static let refund = GatewayEndpoint<RefundRequest, Transaction>(
        .post, "/v1/transactions/{id}/refund", authentication: .bearer, scope: .payments, idempotent: true)
    /// A transaction's receipt data.
    public static let receipt = GatewayEndpoint<GatewayNoBody, ReceiptData>(
        .get, "/v1/transactions/{id}/receipt", authentication: .bearer, scope: .payments)
    /// Sends a receipt by e-mail or SMS (answers 202).
    public static let sendReceipt = GatewayEndpoint<SendReceiptRequest, Acknowledgement>(
        .post, "/v1/transactions/{id}/receipt/send", authentication: .bearer, scope: .payments)
    /// Stores the cardholder's signature image of an approved transaction (a PNG; a new one
    /// replaces it).
    public static let uploadSignature = GatewayEndpoint<SignatureImage, Acknowledgement>(
        .put, "/v1/transactions/{id}/signature", authentication: .bearer, scope: .payments)
    /// The cardholder's signature image of a transaction.
    public static let signature = GatewayEndpoint<GatewayNoBody, SignatureImage>(
        .get, "/v1/transactions/{id}/signature", authentication: .bearer, scope: .payments)
    /// Closes the open settlement batch.
    public static let closeBatch = GatewayEndpoint<GatewayNoBody, Batch>(
        .post, "/v1/batches/close", authentication: .bearer, scope: .administration, idempotent: true)

    // MARK: Reporting
    /// Searches transactions.
    public static let searchTransactions = GatewayEndpoint<TransactionSearchRequest, TransactionPage>(
        .post, "/v1/transactions/search", authentication: .bearer, scope: .terminal)
    /// Sums transactions.
    public static let statistics = GatewayEndpoint<StatisticsRequest, StatisticsResponse>(
        .post, "/v1/statistics", authentication: .bearer, scope: .terminal)
    /// Replaces the inventory.
    public static let uploadInventory = GatewayEndpoint<InventoryUploadRequest, InventoryVersion>(
        .put, "/v1/inventory", authentication: .bearer, scope: .administration)
    /// The inventory.
    public static let downloadInventory = GatewayEndpoint<GatewayNoBody, InventoryDocument>(
        .get, "/v1/inventory", authentication: .bearer, scope: .terminal)
    /// The inventory's version (404 when none was uploaded).
    public static let inventoryVersion = GatewayEndpoint<GatewayNoBody, InventoryVersion>(
        .get, "/v1/inventory/version", authentication: .bearer, scope: .terminal)
    /// The webhook configuration.
    public static let getWebhookConfig = GatewayEndpoint<GatewayNoBody, WebhookConfigResponse>(
        .get, "/v1/webhooks/config", authentication: .bearer, scope: .administration)
    /// Replaces the webhook configuration.
    public static let putWebhookConfig = GatewayEndpoint<WebhookConfig, WebhookConfigResponse>(
        .put, "/v1/webhooks/config", authentication: .bearer, scope: .administration)
    /// The webhook deliveries.
    public static let webhookDeliveries = GatewayEndpoint<GatewayNoBody, WebhookDeliveryList>(
        .get, "/v1/webhooks/deliveries", authentication: .bearer, scope: .administration)

    // MARK: Terminal management
    /// Registers a reader and answers its pending updates.
    public static let terminalInitialize = GatewayEndpoint<
        TerminalInitializeRequest, TerminalInitializeResponse
    >(
        .post, "/v1/terminals/initialize", authentication: .bearer, scope: .terminal)
    /// Records an install a reader confirmed.
    public static let terminalInstalls = GatewayEndpoint<InstallConfirmation, TerminalInitializeResponse>(
        .post, "/v1/terminals/installs", authentication: .bearer, scope: .terminal)
    /// The update catalogue.
    public static let listUpdates = GatewayEndpoint<GatewayNoBody, UpdateCatalogue>(
        .get, "/v1/updates", authentication: .bearer, scope: .terminal)
    /// Publishes an update (answers 201); the body is the image's bytes, described by the
    /// query.
    public static let publishUpdate = GatewayEndpoint<GatewayBytes, UpdateImage>(
        .post, "/v1/updates", authentication: .apiKey, scope: .administration)
    /// One image's bytes; answers `Range` requests with 206.
    public static let updateFile = GatewayEndpoint<GatewayNoBody, GatewayBytes>(
        .get, "/v1/updates/{id}/file", authentication: .bearer, scope: .terminal)

    /// The service and account routes (served by the gateway core).
    public static let core: [GatewayRoute] = [
        health.route, openAPI.route, login.route, logout.route, deviceSession.route, forgotUserID.route,
        resetPassword.route, confirmPasswordReset.route, changePassword.route, merchant.route, outbox.route,
        securityEvents.route, registerDevice.route, devices.route, revokeDevice.route, mintClientToken.route, createMerchant.route,
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
