/// The path templates of the gateway's routes, with `{name}` placeholders (the syntax of
/// OpenAPI and of Hummingbird's router), and helpers that fill them in. Each path is the one
/// declared with its endpoint in ``GatewayRoutes``; these names stay for code that builds a
/// URL by hand (tests, tools).
///
/// Every path but ``health`` starts with ``GatewayAPIInfo/pathPrefix`` (`/v1`).
public enum GatewayPaths {
    /// The path of ``GatewayRoutes/health``.
    public static let health = GatewayRoutes.health.path
    /// The path of ``GatewayRoutes/openAPI``.
    public static let openAPI = GatewayRoutes.openAPI.path
    /// The path of ``GatewayRoutes/login``.
    public static let login = GatewayRoutes.login.path
    /// The path of ``GatewayRoutes/logout``.
    public static let logout = GatewayRoutes.logout.path
    /// The path of ``GatewayRoutes/deviceSession``.
    public static let deviceSession = GatewayRoutes.deviceSession.path
    /// The path of ``GatewayRoutes/devices`` and ``GatewayRoutes/registerDevice``.
    public static let devices = GatewayRoutes.devices.path
    /// The path of ``GatewayRoutes/revokeDevice``.
    public static let revokeDevice = GatewayRoutes.revokeDevice.path
    /// The path of ``GatewayRoutes/forgotUserID``.
    public static let forgotUserID = GatewayRoutes.forgotUserID.path
    /// The path of ``GatewayRoutes/resetPassword``.
    public static let resetPassword = GatewayRoutes.resetPassword.path
    /// The path of ``GatewayRoutes/confirmPasswordReset``.
    public static let confirmPasswordReset = GatewayRoutes.confirmPasswordReset.path
    /// The path of ``GatewayRoutes/changePassword``.
    public static let changePassword = GatewayRoutes.changePassword.path
    /// The path of ``GatewayRoutes/merchant``.
    public static let merchant = GatewayRoutes.merchant.path
    /// The path of ``GatewayRoutes/outbox``.
    public static let outbox = GatewayRoutes.outbox.path
    /// The path of ``GatewayRoutes/securityEvents``.
    public static let securityEvents = GatewayRoutes.securityEvents.path
    /// The path of ``GatewayRoutes/mintClientToken``.
    public static let clientTokens = GatewayRoutes.mintClientToken.path
    /// The path of ``GatewayRoutes/createMerchant``.
    public static let merchants = GatewayRoutes.createMerchant.path
    /// The path of ``GatewayRoutes/authorizeCard``.
    public static let authorizeCard = GatewayRoutes.authorizeCard.path
    /// The path of ``GatewayRoutes/cashPayment``.
    public static let cashPayment = GatewayRoutes.cashPayment.path
    /// The path of ``GatewayRoutes/sepaPayment``.
    public static let sepaPayment = GatewayRoutes.sepaPayment.path
    /// The path of ``GatewayRoutes/attempt``.
    public static let attempt = GatewayRoutes.attempt.path
    /// The path of ``GatewayRoutes/transaction``.
    public static let transaction = GatewayRoutes.transaction.path
    /// The path of ``GatewayRoutes/capture``.
    public static let capture = GatewayRoutes.capture.path
    /// The path of ``GatewayRoutes/tipAdjust``.
    public static let tipAdjust = GatewayRoutes.tipAdjust.path
    /// The path of ``GatewayRoutes/void``.
    public static let void = GatewayRoutes.void.path
    /// The path of ``GatewayRoutes/reverse``.
    public static let reverse = GatewayRoutes.reverse.path
    /// The path of ``GatewayRoutes/refund``.
    public static let refund = GatewayRoutes.refund.path
    /// The path of ``GatewayRoutes/receipt``.
    public static let receipt = GatewayRoutes.receipt.path
    /// The path of ``GatewayRoutes/sendReceipt``.
    public static let sendReceipt = GatewayRoutes.sendReceipt.path
    /// The path of ``GatewayRoutes/closeBatch``.
    public static let closeBatch = GatewayRoutes.closeBatch.path
    /// The path of ``GatewayRoutes/searchTransactions``.
    public static let searchTransactions = GatewayRoutes.searchTransactions.path
    /// The path of ``GatewayRoutes/statistics``.
    public static let statistics = GatewayRoutes.statistics.path
    /// The path of ``GatewayRoutes/downloadInventory``.
    public static let inventory = GatewayRoutes.downloadInventory.path
    /// The path of ``GatewayRoutes/inventoryVersion``.
    public static let inventoryVersion = GatewayRoutes.inventoryVersion.path
    /// The path of ``GatewayRoutes/getWebhookConfig``.
    public static let webhookConfig = GatewayRoutes.getWebhookConfig.path
    /// The path of ``GatewayRoutes/webhookDeliveries``.
    public static let webhookDeliveries = GatewayRoutes.webhookDeliveries.path
    /// The path of ``GatewayRoutes/terminalInitialize``.
    public static let terminalInitialize = GatewayRoutes.terminalInitialize.path
    /// The path of ``GatewayRoutes/terminalInstalls``.
    public static let terminalInstalls = GatewayRoutes.terminalInstalls.path
    /// The path of ``GatewayRoutes/listUpdates``.
    public static let updates = GatewayRoutes.listUpdates.path
    /// The path of ``GatewayRoutes/updateFile``.
    public static let updateFile = GatewayRoutes.updateFile.path

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
