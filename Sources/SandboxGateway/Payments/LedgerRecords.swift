import Foundation
import GRDB
import GatewayAPI
import MPOSCore

/// One row of `payment_transaction`: a sale, authorisation, capture, refund, void, tip
/// adjustment, cash or SEPA payment. Follow-ups (capture, refund, void, tip) point at their
/// original through ``originalID`` and also update the original's running amounts.
///
/// Card data is limited to what may be kept after authorisation: masked number, brand,
/// expiry, name and a keyed fingerprint; never the PAN, track data or CVV.
///
/// Rows are read and written by column name (``init(row:)``, ``storedColumns``); a kind,
/// status or currency that is not one of MPOSCore's values makes the read throw
/// ``LedgerValueError`` rather than guess.
public struct LedgerTransaction: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    /// The table; its columns are the snake_case property names (``storedColumns``).
    public static let databaseTableName = "payment_transaction"

    /// The row number, set on insert; it orders rows created in the same millisecond.
    public var seq: Int64?
    /// The public id, `txn_` and 24 hex digits (the creation time in milliseconds, then 48 random bits).
    public var id: String
    /// The owning merchant.
    public var merchantId: String
    /// What it did (stored as the raw value, such as `sale`).
    public var kind: TransactionKind
    /// Its status (stored as the raw value, such as `approved`).
    public var status: FinancialStatus
    /// The transaction it follows up.
    public var originalId: String?
    /// The amount asked for, minor units.
    public var amountRequested: Int64
    /// The amount the issuer approved.
    public var amountApproved: Int64
    /// The amount captured so far.
    public var amountCaptured: Int64
    /// The amount refunded so far.
    public var amountRefunded: Int64
    /// The tip.
    public var amountTip: Int64
    /// ``amountRequested`` in whole major units, for search.
    public var amountMajor: Int64
    /// The currency (stored as its ISO 4217 alpha code).
    public var currency: Currency
    /// The ISO 8583 response code, `00` when approved.
    public var responseCode: String?
    /// The issuer's authorisation code.
    public var authCode: String?
    /// The acquirer's message.
    public var acquirerMessage: String?
    /// The settlement batch.
    public var batchId: Int64?
    /// HMAC-SHA256 of the PAN with the gateway secret.
    public var cardFingerprint: String?
    /// First six and last four digits.
    public var maskedPan: String?
    /// The card brand.
    public var brand: String?
    /// Expiry as `YYMM`.
    public var expiry: String?
    /// The name the card reports.
    public var cardholderName: String?
    /// How the card was read.
    public var entryMode: String?
    /// How the cardholder was verified.
    public var cvm: String?
    /// EMV 4F.
    public var aid: String?
    /// EMV 50.
    public var applicationLabel: String?
    /// EMV 95.
    public var tvr: String?
    /// EMV 9B.
    public var tsi: String?
    /// EMV 91 for the card (ARPC and CSU), hex.
    public var issuerAuthenticationData: String?
    /// The merchant's customer reference.
    public var customerReference: String?
    /// The merchant's own id for the payment.
    public var externalId: String?
    /// The statement descriptor as the cardholder sees it.
    public var descriptor: String?
    /// `completed_sale`, `auth_until_capture` or `tip_adjustment`.
    public var captureMode: String?
    /// Whether a partial approval was allowed.
    public var allowPartial: Bool
    /// When it was recorded.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// The `Idempotency-Key` of the request that made this row, kept for as long as the row:
    /// the attempt lookup answers from it once the key's stored answer has expired.
    public var idempotencyKey: String?

    /// Sets ``seq`` after insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { seq = inserted.rowID }

    /// A blank row of `kind` for `merchant`, to be filled in.
    public init(
        id: String, merchantId: String, kind: TransactionKind, status: FinancialStatus, amount: Int64,
        currency: Currency, now: Date
    ) {
        self.id = id
        self.merchantId = merchantId
        self.kind = kind
        self.status = status
        self.amountRequested = amount
        self.amountApproved = 0
        self.amountCaptured = 0
        self.amountRefunded = 0
        self.amountTip = 0
        var scale: Int64 = 1
        for _ in 0..<(currency.minorUnits ?? 0) { scale *= 10 }
        self.amountMajor = amount / scale
        self.currency = currency
        self.allowPartial = false
        self.createdAt = now
        self.updatedAt = now
    }
}

/// One row of `payment_batch`.
public struct LedgerBatch: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    /// The table.
    public static let databaseTableName = "payment_batch"
    /// snake_case columns.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// snake_case columns.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The batch number.
    public var id: Int64?
    /// The merchant.
    public var merchantId: String
    /// `open` or `closed`.
    public var status: String
    /// When it opened.
    public var openedAt: Date
    /// When it closed.
    public var closedAt: Date?
    /// Settled transactions, counted at close.
    public var transactionCount: Int
    /// Captured amounts plus tips minus refunds, at close (single-currency sandbox view).
    public var netAmount: Int64

    /// Sets the id after insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One row of `payment_sepa`: the mandate of a SEPA direct debit.
public struct LedgerSEPA: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The table.
    public static let databaseTableName = "payment_sepa"
    /// snake_case columns.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// snake_case columns.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    /// The transaction.
    public var transactionId: String
    /// The mandate reference.
    public var mandateReference: String
    /// When the mandate was signed on the terminal.
    public var signedAt: Date
}

/// One row of `payment_webhook_config`.
public struct LedgerWebhookConfig: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The table.
    public static let databaseTableName = "payment_webhook_config"
    /// snake_case columns.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// snake_case columns.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    /// The merchant.
    public var merchantId: String
    /// Where to POST.
    public var url: String
    /// The HMAC key.
    public var secret: String
    /// Whether to send.
    public var enabled: Bool
    /// When it last changed.
    public var updatedAt: Date
}

/// One row of `payment_inventory`: an uploaded inventory CSV version.
public struct LedgerInventory: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The table.
    public static let databaseTableName = "payment_inventory"
    /// snake_case columns.
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    /// snake_case columns.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    /// The merchant.
    public var merchantId: String
    /// 1, 2, 3… per merchant.
    public var version: Int
    /// The file as uploaded.
    public var content: Data
    /// SHA-256 of the content, lower-case hex.
    public var sha256: String
    /// The header's columns joined with commas.
    public var columns: String
    /// Data rows.
    public var rowCount: Int
    /// When it was uploaded.
    public var uploadedAt: Date
}

extension WebhookAttempt {
    /// Inserts the attempt into `payment_webhook_delivery`.
    func insert(_ db: any SQLSession) throws {
        try db.execute(
            sql: """
                INSERT INTO payment_webhook_delivery
                (merchant_id, event_id, transaction_id, url, attempt, status_code, failure, succeeded, attempted_at, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                merchantID, eventID, transactionID, url, attempt, statusCode, failure?.rawValue, succeeded, attemptedAt,
                nextAttemptAt,
            ])
    }

    /// Reads a row of `payment_webhook_delivery`.
    init(row: Row) {
        self.init(
            eventID: row["event_id"], merchantID: row["merchant_id"], transactionID: row["transaction_id"],
            url: row["url"], attempt: row["attempt"], statusCode: row["status_code"],
            failure: (row["failure"] as String?).map(WebhookDeliveryFailure.init(rawValue:)),
            succeeded: row["succeeded"], attemptedAt: row["attempted_at"],
            nextAttemptAt: row["next_attempt_at"])
    }
}
