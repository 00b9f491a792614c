import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSCore

/// Registers the reporting routes (``GatewayRoutes/reporting``): transaction search,
/// statistics, the inventory file and the webhook configuration and delivery log.
public func addReportingRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    let pool = environment.store.database
    let reporting = ReportingService(database: pool, now: environment.configuration.now)

    router.on(GatewayRoutes.searchTransactions) { request, context in
        let merchant = try context.requireMerchant()
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.searchTransactions)
        var search = try mappedSync {
            try TransactionSearch(
                page: input.page, pageSize: input.pageSize,
                order: input.order == .ascending ? "oldest" : "newest",
                status: input.status.rawValue, text: input.text)
        }
        search.filters = try mappedSync {
            try TransactionFilters(
                kind: input.kind?.rawValue, minimumAmount: input.minAmount, maximumAmount: input.maxAmount,
                cardLastFour: input.cardLastFour)
        }
        let page = try await mapped {
            try await reporting.search(merchant: merchant, search, from: input.from, to: input.to)
        }
        return try context.respond(
            to: request,
            with:
                TransactionPage(
                    items: page.transactions.map(\.apiTransaction), page: search.page,
                    pageSize: search.pageSize,
                    totalCount: page.total))
    }

    router.on(GatewayRoutes.statistics) { request, context in
        let merchant = try context.requireMerchant()
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.statistics)
        let requested = try input.currency.map { requested in try mappedSync { try PaymentRules.currency(code: requested.code) } }
        let currency: Currency
        if let requested {
            currency = requested
        } else {
            currency = try await environment.accounts.merchantInfo(merchantID: merchant, userID: nil).currency
        }
        guard let period = StatisticsPeriod(rawValue: input.grouping.rawValue) else {
            throw GatewayError.invalid("Unknown grouping.")
        }
        let groups = try await mapped {
            try await reporting.statistics(
                merchant: merchant, from: input.from, to: input.to, period: period,
                nestByStatus: input.byStatus,
                currency: currency.code)
        }
        let buckets = groups.map { group in
            StatisticsBucket(
                periodStart: group.periodStart, label: group.period, count: group.figures.count,
                turnover: group.figures.turnover, minimum: group.figures.minimum,
                maximum: group.figures.maximum,
                average: group.figures.average,
                byStatus: group.byStatus.map { nested in
                    nested.keys.sorted().compactMap { key in
                        guard let status = FinancialStatus(rawValue: key), let f = nested[key] else {
                            return nil
                        }
                        return StatusStatistics(
                            status: status, count: f.count, turnover: f.turnover, minimum: f.minimum,
                            maximum: f.maximum,
                            average: f.average)
                    }
                })
        }
        return try context.respond(
            to: request,
            with:
                StatisticsResponse(currency: currency, grouping: input.grouping, buckets: buckets))
    }

    router.on(GatewayRoutes.uploadInventory) { request, context in
        let merchant = try context.requireMerchant()
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.uploadInventory)
        let record = try await mapped {
            try await reporting.uploadInventory(
                merchant: merchant, version: input.version, content: Array(input.csv.utf8))
        }
        return try context.respond(to: request, with: record.apiVersion)
    }

    router.on(GatewayRoutes.downloadInventory) { request, context in
        let merchant = try context.requireMerchant()
        let record = try await mapped { try await reporting.inventory(merchant: merchant) }
        return try context.respond(
            to: request,
            with:
                InventoryDocument(
                    version: record.apiVersion, csv: String(decoding: record.content, as: UTF8.self)))
    }

    router.on(GatewayRoutes.inventoryVersion) { request, context in
        let merchant = try context.requireMerchant()
        return try context.respond(
            to: request,
            with:
                try await mapped { try await reporting.inventory(merchant: merchant) }.apiVersion)
    }

    router.on(GatewayRoutes.getWebhookConfig) { request, context in
        let merchant = try context.requireMerchant()
        let (config, asynchronous) = try await pool.read { db in
            (
                try db.fetchOne(
                    LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ?",
                    arguments: [merchant]),
                try AsynchronousRefunds.isOn(db, merchant: merchant)
            )
        }
        return try context.respond(to: request, with: config.apiResponse(asynchronousRefunds: asynchronous))
    }

    router.on(GatewayRoutes.putWebhookConfig) { request, context in
        let merchant = try context.requireMerchant()
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.putWebhookConfig)
        if let url = input.callbackURL {
            guard let parsed = URL(string: url),
                ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false, url.unicodeScalars.count <= 2048
            else { throw GatewayError.invalid("callbackURL must be an http or https URL.") }
            // Stored and shown back with the configuration, a password in it would leak.
            guard parsed.user(percentEncoded: false) == nil, parsed.password(percentEncoded: false) == nil else {
                throw GatewayError.invalid("callbackURL may not carry a user or password.")
            }
            // Where the gateway will post: resolved now and again at each delivery.
            try await environment.webhookDestinations.check(url, field: "callbackURL")
        }
        if let secret = input.secret, !(16...128).contains(secret.unicodeScalars.count) {
            throw GatewayError.invalid("secret must be 16 to 128 characters.")
        }
        let now = environment.configuration.now()
        @Sendable func saveWebhook(_ db: any SQLSession) throws -> LedgerWebhookConfig? {
            let current = try db.fetchOne(
                LedgerWebhookConfig.self, sql: "SELECT * FROM payment_webhook_config WHERE merchant_id = ?",
                arguments: [merchant])
            guard let url = input.callbackURL else {
                guard var current else { return nil }
                current.enabled = false
                current.updatedAt = now
                try db.update(current, key: ["merchant_id"])
                return current
            }
            let config = LedgerWebhookConfig(
                merchantId: merchant, url: url, secret: input.secret ?? current?.secret ?? "", enabled: true,
                updatedAt: now)
            if current == nil { try db.insert(config) } else { try db.update(config, key: ["merchant_id"]) }
            return config
        }
        let (saved, asynchronous) = try await pool.write { db -> (LedgerWebhookConfig?, Bool) in
            if let asynchronous = input.asynchronousRefunds {
                try AsynchronousRefunds.set(db, merchant: merchant, asynchronous: asynchronous, now: now)
            }
            return (try saveWebhook(db), try AsynchronousRefunds.isOn(db, merchant: merchant))
        }
        try await environment.accounts.securityLog.record(
            .webhookConfigChanged, merchantID: merchant, userID: context.principal?.userID,
            address: context.clientAddress,
            detail: input.callbackURL == nil
                ? "Webhooks were turned off." : input.secret == nil ? "The webhook URL was set." : "The webhook URL and secret were set.")
        return try context.respond(to: request, with: saved.apiResponse(asynchronousRefunds: asynchronous))
    }

    router.on(GatewayRoutes.webhookDeliveries) { request, context in
        let merchant = try context.requireMerchant()
        let deliveries = try await pool.read { db -> [WebhookDelivery] in
            try db.fetchAll(sql:
                    "SELECT * FROM payment_webhook_delivery WHERE merchant_id = ? ORDER BY id DESC LIMIT 200",
                arguments: [merchant]
            ).compactMap { row -> WebhookDelivery? in
                let attempt = WebhookAttempt(row: row)
                guard let transaction = TransactionID(rawValue: attempt.transactionID) else { return nil }
                let id: Int64 = row["id"]
                return WebhookDelivery(
                    id: "whd_\(id)", transactionID: transaction, url: attempt.url, attempt: attempt.attempt,
                    statusCode: attempt.statusCode, failure: attempt.failure, attemptedAt: attempt.attemptedAt,
                    succeeded: attempt.succeeded)
            }
        }
        return try context.respond(to: request, with: WebhookDeliveryList(deliveries: deliveries))
    }
}

/// Runs `work`, turning a broken rule into its gateway error.
func mappedSync<T>(_ work: () throws -> T) throws -> T {
    do { return try work() } catch let violation as PaymentRuleViolation {
        throw GatewayError(code: violation.gatewayCode, violation.message)
    }
}

extension LedgerInventory {
    /// The version as the API reports it.
    var apiVersion: InventoryVersion {
        InventoryVersion(version: version, uploadedAt: uploadedAt, itemCount: rowCount, sha256: sha256)
    }
}

extension Optional where Wrapped == LedgerWebhookConfig {
    /// The configuration as the API reports it: never the secret.
    var apiResponse: WebhookConfigResponse {
        guard let config = self, config.enabled else {
            return WebhookConfigResponse(callbackURL: nil, hasSecret: self?.secret.isEmpty == false)
        }
        return WebhookConfigResponse(callbackURL: config.url, hasSecret: !config.secret.isEmpty)
    }

    /// The configuration as the API reports it, with the merchant's refund setting.
    func apiResponse(asynchronousRefunds: Bool) -> WebhookConfigResponse {
        var response = apiResponse
        response.asynchronousRefunds = asynchronousRefunds
        return response
    }
}
