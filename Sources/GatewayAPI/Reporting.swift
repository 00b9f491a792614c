#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

/// Sort order of a search.
public enum SortOrder: String, Codable, Sendable, Hashable, CaseIterable {
    /// Oldest first.
    case ascending = "asc"
    /// Newest first (the default).
    case descending = "desc"
}

/// Which transactions a search returns, by outcome.
public enum SearchStatusFilter: String, Codable, Sendable, Hashable, CaseIterable {
    /// Approved (including partially approved).
    case approved
    /// Declined.
    case declined
    /// Reversed.
    case reversed
    /// Refunded.
    case refunded
    /// All of them (the default).
    case all
}

/// `POST /v1/transactions/search`: one page of the caller's transactions.
public struct TransactionSearchRequest: Codable, Sendable, Hashable {
    /// The page, from 1 (default 1).
    public var page: Int
    /// Transactions per page, 1...100 (default 20).
    public var pageSize: Int
    /// By creation time (default newest first).
    public var order: SortOrder
    /// By outcome (default all).
    public var status: SearchStatusFilter
    /// Free text matched against id, external id, customer reference, authorisation code,
    /// last four digits, cardholder name, and the amount in minor units.
    public var text: String?
    /// Created at or after.
    public var from: Date?
    /// Created before.
    public var to: Date?

    /// Creates a search.
    public init(
        page: Int = 1, pageSize: Int = 20, order: SortOrder = .descending,
        status: SearchStatusFilter = .all, text: String? = nil, from: Date? = nil, to: Date? = nil
    ) {
        self.page = page
        self.pageSize = pageSize
        self.order = order
        self.status = status
        self.text = text
        self.from = from
        self.to = to
    }

    private enum CodingKeys: String, CodingKey {
        case page, pageSize, order, status, text, from, to
    }

    /// Decodes a search, filling in defaults for omitted fields.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.page = try c.decodeIfPresent(Int.self, forKey: .page) ?? 1
        self.pageSize = try c.decodeIfPresent(Int.self, forKey: .pageSize) ?? 20
        self.order = try c.decodeIfPresent(SortOrder.self, forKey: .order) ?? .descending
        self.status = try c.decodeIfPresent(SearchStatusFilter.self, forKey: .status) ?? .all
        self.text = try c.decodeIfPresent(String.self, forKey: .text)
        self.from = try c.decodeIfPresent(Date.self, forKey: .from)
        self.to = try c.decodeIfPresent(Date.self, forKey: .to)
    }
}

/// One page of search results.
public struct TransactionPage: Codable, Sendable, Hashable {
    /// The transactions on this page.
    public var items: [Transaction]
    /// The page number, from 1.
    public var page: Int
    /// The page size asked for.
    public var pageSize: Int
    /// How many transactions match in all.
    public var totalCount: Int

    /// Creates a page.
    public init(items: [Transaction], page: Int, pageSize: Int, totalCount: Int) {
        self.items = items
        self.page = page
        self.pageSize = pageSize
        self.totalCount = totalCount
    }
}

/// One line of a receipt.
public struct ReceiptLine: Codable, Sendable, Hashable {
    /// What was sold.
    public var description: String
    /// How many.
    public var quantity: Int
    /// Price of one, minor units.
    public var unitPrice: Int64
    /// Quantity times unit price.
    public var total: Int64
    /// Tax rate, basis points.
    public var taxBasisPoints: Int

    /// Creates a receipt line.
    public init(description: String, quantity: Int, unitPrice: Int64, total: Int64, taxBasisPoints: Int) {
        self.description = description
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.total = total
        self.taxBasisPoints = taxBasisPoints
    }
}

/// The tax of one rate on a receipt (prices include tax).
public struct ReceiptTax: Codable, Sendable, Hashable {
    /// The rate, basis points.
    public var basisPoints: Int
    /// The net amount at this rate.
    public var netAmount: Int64
    /// The tax at this rate.
    public var taxAmount: Int64

    /// Creates a tax line.
    public init(basisPoints: Int, netAmount: Int64, taxAmount: Int64) {
        self.basisPoints = basisPoints
        self.netAmount = netAmount
        self.taxAmount = taxAmount
    }
}

/// `GET /v1/transactions/{id}/receipt`: everything a receipt shows (the mandatory
/// scheme fields included), to print or render.
public struct ReceiptData: Codable, Sendable, Hashable {
    /// The transaction.
    public var transactionID: TransactionID
    /// The receipt number.
    public var receiptNumber: Int
    /// The merchant's name.
    public var merchantName: String
    /// The merchant's address.
    public var merchantAddress: String?
    /// The merchant id (MID).
    public var merchantID: String
    /// The terminal id, if known.
    public var terminalID: String?
    /// When the transaction was recorded.
    public var date: Date
    /// What it was.
    public var kind: TransactionKind
    /// Its outcome.
    public var status: FinancialStatus
    /// The basket lines (empty without a basket).
    public var lines: [ReceiptLine]
    /// Taxes per rate.
    public var taxes: [ReceiptTax]
    /// The tip.
    public var tipAmount: Int64
    /// The total.
    public var totalAmount: Int64
    /// The currency.
    public var currency: Currency
    /// The card, for card transactions.
    public var card: CardSummary?
    /// EMV values (AID, label, TVR, TSI, cryptogram).
    public var emv: EMVSummary?
    /// The approval code.
    public var authorizationCode: String?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// Whether the merchant copy needs a signature line.
    public var signatureRequired: Bool

    /// Creates receipt data.
    public init(
        transactionID: TransactionID, receiptNumber: Int, merchantName: String,
        merchantAddress: String? = nil, merchantID: String, terminalID: String? = nil, date: Date,
        kind: TransactionKind, status: FinancialStatus, lines: [ReceiptLine] = [],
        taxes: [ReceiptTax] = [], tipAmount: Int64 = 0, totalAmount: Int64, currency: Currency,
        card: CardSummary? = nil, emv: EMVSummary? = nil, authorizationCode: String? = nil,
        entryMode: CardEntryMode? = nil, cvm: CardholderVerification? = nil,
        signatureRequired: Bool = false
    ) {
        self.transactionID = transactionID
        self.receiptNumber = receiptNumber
        self.merchantName = merchantName
        self.merchantAddress = merchantAddress
        self.merchantID = merchantID
        self.terminalID = terminalID
        self.date = date
        self.kind = kind
        self.status = status
        self.lines = lines
        self.taxes = taxes
        self.tipAmount = tipAmount
        self.totalAmount = totalAmount
        self.currency = currency
        self.card = card
        self.emv = emv
        self.authorizationCode = authorizationCode
        self.entryMode = entryMode
        self.cvm = cvm
        self.signatureRequired = signatureRequired
    }
}

/// `POST /v1/transactions/{id}/receipt/send`: send the receipt by e-mail or SMS (the
/// sandbox writes it to the outbox).
public struct SendReceiptRequest: Codable, Sendable, Hashable {
    /// E-mail or SMS.
    public var channel: MessageChannel
    /// The e-mail address or phone number (E.164, such as `"+4915112345678"`).
    public var address: String

    /// Creates the request.
    public init(channel: MessageChannel, address: String) {
        self.channel = channel
        self.address = address
    }
}

/// The period statistics are grouped by.
public enum StatisticsGrouping: String, Codable, Sendable, Hashable, CaseIterable {
    /// Calendar day (UTC).
    case day
    /// ISO week, Monday first (UTC).
    case week
    /// Calendar month.
    case month
    /// Calendar quarter.
    case quarter
    /// Calendar year.
    case year
}

/// `POST /v1/statistics`: turnover figures over a time range.
public struct StatisticsRequest: Codable, Sendable, Hashable {
    /// Start of the range, inclusive.
    public var from: Date
    /// End of the range, exclusive.
    public var to: Date
    /// The period of each bucket.
    public var grouping: StatisticsGrouping
    /// Whether each bucket also holds one nested bucket per transaction status (default
    /// `false`).
    public var byStatus: Bool
    /// Only this currency; `nil` for the merchant's default currency.
    public var currency: Currency?

    /// Creates the request.
    public init(from: Date, to: Date, grouping: StatisticsGrouping, byStatus: Bool = false, currency: Currency? = nil) {
        self.from = from
        self.to = to
        self.grouping = grouping
        self.byStatus = byStatus
        self.currency = currency
    }

    private enum CodingKeys: String, CodingKey { case from, to, grouping, byStatus, currency }

    /// Decodes the request; `byStatus` defaults to `false`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.from = try c.decode(Date.self, forKey: .from)
        self.to = try c.decode(Date.self, forKey: .to)
        self.grouping = try c.decode(StatisticsGrouping.self, forKey: .grouping)
        self.byStatus = try c.decodeIfPresent(Bool.self, forKey: .byStatus) ?? false
        self.currency = try c.decodeIfPresent(Currency.self, forKey: .currency)
    }
}

/// Figures of one status within a statistics bucket.
public struct StatusStatistics: Codable, Sendable, Hashable {
    /// The status.
    public var status: FinancialStatus
    /// Number of transactions.
    public var count: Int
    /// Sum of their totals, minor units.
    public var turnover: Int64
    /// Smallest total (nil when count is 0).
    public var minimum: Int64?
    /// Largest total.
    public var maximum: Int64?
    /// Mean total, rounded half away from zero.
    public var average: Int64?

    /// Creates status figures.
    public init(status: FinancialStatus, count: Int, turnover: Int64, minimum: Int64?, maximum: Int64?, average: Int64?) {
        self.status = status
        self.count = count
        self.turnover = turnover
        self.minimum = minimum
        self.maximum = maximum
        self.average = average
    }
}

/// One period of statistics. Turnover counts approved sales and captures (tips included)
/// minus refunds; min/max/average are over those transactions' totals.
public struct StatisticsBucket: Codable, Sendable, Hashable {
    /// Start of the period.
    public var periodStart: Date
    /// A label such as `"2026-11-23"`, `"2026-W48"`, `"2026-11"`, `"2026-Q4"`, `"2026"`.
    public var label: String
    /// Number of transactions.
    public var count: Int
    /// Turnover, minor units.
    public var turnover: Int64
    /// Smallest total.
    public var minimum: Int64?
    /// Largest total.
    public var maximum: Int64?
    /// Mean total.
    public var average: Int64?
    /// Per status, when asked for.
    public var byStatus: [StatusStatistics]?

    /// Creates a bucket.
    public init(
        periodStart: Date, label: String, count: Int, turnover: Int64, minimum: Int64?,
        maximum: Int64?, average: Int64?, byStatus: [StatusStatistics]? = nil
    ) {
        self.periodStart = periodStart
        self.label = label
        self.count = count
        self.turnover = turnover
        self.minimum = minimum
        self.maximum = maximum
        self.average = average
        self.byStatus = byStatus
    }
}

/// The answer to a statistics request.
public struct StatisticsResponse: Codable, Sendable, Hashable {
    /// The currency of every amount.
    public var currency: Currency
    /// The grouping asked for.
    public var grouping: StatisticsGrouping
    /// One bucket per period that has transactions, oldest first.
    public var buckets: [StatisticsBucket]

    /// Creates the answer.
    public init(currency: Currency, grouping: StatisticsGrouping, buckets: [StatisticsBucket]) {
        self.currency = currency
        self.grouping = grouping
        self.buckets = buckets
    }
}

/// `PUT /v1/inventory`: replace the merchant's inventory with a CSV file.
public struct InventoryUploadRequest: Codable, Sendable, Hashable {
    /// The new version; must be greater than the current one.
    public var version: Int
    /// The CSV text (header line first), at most the body limit.
    public var csv: String

    /// Creates the request.
    public init(version: Int, csv: String) {
        self.version = version
        self.csv = csv
    }
}

/// The current inventory's version.
public struct InventoryVersion: Codable, Sendable, Hashable {
    /// The version number.
    public var version: Int
    /// When it was uploaded.
    public var uploadedAt: Date
    /// Number of data rows (lines after the header).
    public var itemCount: Int
    /// SHA-256 of the CSV bytes, lower-case hex.
    public var sha256: String

    /// Creates a version record.
    public init(version: Int, uploadedAt: Date, itemCount: Int, sha256: String) {
        self.version = version
        self.uploadedAt = uploadedAt
        self.itemCount = itemCount
        self.sha256 = sha256
    }
}

/// `GET /v1/inventory`: the current inventory.
public struct InventoryDocument: Codable, Sendable, Hashable {
    /// Its version.
    public var version: InventoryVersion
    /// The CSV text.
    public var csv: String

    /// Creates a document.
    public init(version: InventoryVersion, csv: String) {
        self.version = version
        self.csv = csv
    }
}

/// `PUT /v1/webhooks/config`: where the gateway posts transaction callbacks.
public struct WebhookConfig: Codable, Sendable, Hashable {
    /// The `http` or `https` URL; `nil` turns callbacks off.
    public var callbackURL: String?
    /// The secret for the `X-Signature` HMAC-SHA256 of each callback body, 16...128
    /// characters; `nil` keeps the current one.
    public var secret: String?

    /// Creates a configuration.
    public init(callbackURL: String?, secret: String? = nil) {
        self.callbackURL = callbackURL
        self.secret = secret
    }
}

/// The webhook configuration as the gateway reports it (the secret never comes back).
public struct WebhookConfigResponse: Codable, Sendable, Hashable {
    /// The callback URL, if set.
    public var callbackURL: String?
    /// Whether a secret is set.
    public var hasSecret: Bool

    /// Creates the answer.
    public init(callbackURL: String?, hasSecret: Bool) {
        self.callbackURL = callbackURL
        self.hasSecret = hasSecret
    }
}

/// The body of a transaction callback (the Accept callback's fields). The card number is
/// masked.
public struct WebhookPayload: Codable, Sendable, Hashable {
    /// The transaction id.
    public var uniqueID: String
    /// The merchant id.
    public var merchantID: String
    /// The merchant's name.
    public var merchantName: String
    /// The user who took the payment, if any.
    public var userID: String?
    /// The terminal id, if known.
    public var terminalID: String?
    /// The terminal's serial number, if known.
    public var terminalSerialNumber: String?
    /// Total, minor units.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// When the transaction was recorded.
    public var createdAt: Date
    /// The card scheme.
    public var cardBrand: String?
    /// The masked card number.
    public var cardNumber: String?
    /// The cardholder name.
    public var cardholderName: String?
    /// The transaction's status.
    public var state: FinancialStatus
    /// A ``GatewayErrorCode`` or issuer response code when it failed or was declined.
    public var errorCode: String?
    /// The matching message.
    public var errorMessage: String?
    /// The application label.
    public var aidLabel: String?
    /// The AID.
    public var aid: String?

    /// Creates a payload.
    public init(
        uniqueID: String, merchantID: String, merchantName: String, userID: String? = nil,
        terminalID: String? = nil, terminalSerialNumber: String? = nil, amount: Int64,
        currency: Currency, createdAt: Date, cardBrand: String? = nil, cardNumber: String? = nil,
        cardholderName: String? = nil, state: FinancialStatus, errorCode: String? = nil,
        errorMessage: String? = nil, aidLabel: String? = nil, aid: String? = nil
    ) {
        self.uniqueID = uniqueID
        self.merchantID = merchantID
        self.merchantName = merchantName
        self.userID = userID
        self.terminalID = terminalID
        self.terminalSerialNumber = terminalSerialNumber
        self.amount = amount
        self.currency = currency
        self.createdAt = createdAt
        self.cardBrand = cardBrand
        self.cardNumber = cardNumber
        self.cardholderName = cardholderName
        self.state = state
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.aidLabel = aidLabel
        self.aid = aid
    }
}

/// One attempt to deliver a callback.
public struct WebhookDelivery: Codable, Sendable, Hashable {
    /// The delivery id.
    public var id: String
    /// The transaction the callback is about.
    public var transactionID: TransactionID
    /// The URL posted to.
    public var url: String
    /// Attempt number, from 1.
    public var attempt: Int
    /// The HTTP status received, if any.
    public var statusCode: Int?
    /// Why it failed, if it did.
    public var error: String?
    /// When it was attempted.
    public var attemptedAt: Date
    /// Whether it succeeded (2xx).
    public var succeeded: Bool

    /// Creates a delivery record.
    public init(
        id: String, transactionID: TransactionID, url: String, attempt: Int, statusCode: Int?,
        error: String?, attemptedAt: Date, succeeded: Bool
    ) {
        self.id = id
        self.transactionID = transactionID
        self.url = url
        self.attempt = attempt
        self.statusCode = statusCode
        self.error = error
        self.attemptedAt = attemptedAt
        self.succeeded = succeeded
    }
}

/// `GET /v1/webhooks/deliveries`: the caller's delivery log, newest first.
public struct WebhookDeliveryList: Codable, Sendable, Hashable {
    /// The deliveries.
    public var deliveries: [WebhookDelivery]

    /// Creates the list.
    public init(deliveries: [WebhookDelivery]) { self.deliveries = deliveries }
}
