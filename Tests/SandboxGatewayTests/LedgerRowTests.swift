import Foundation
import GRDB
import MPOSCore
import Testing

@testable import SandboxGateway

/// A ledger row's kind, status and currency are MPOSCore's types on the server and text in
/// the file, as they always were: rows an older gateway wrote still read, and a value no
/// gateway writes is an error that names it.
@Suite(.timeLimit(.minutes(2))) struct LedgerRowTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A sale row with most optional columns set.
    static func sale() -> LedgerTransaction {
        var row = LedgerTransaction(
            id: "txn_0123456789abcdef01234567", merchantId: "m_1", kind: .sale, status: .partiallyApproved,
            amount: 12_34, currency: .jpy, now: now)
        row.amountApproved = 10_00
        row.cardFingerprint = "ab"
        row.maskedPan = "411111******1111"
        row.captureMode = "completed_sale"
        row.allowPartial = true
        return row
    }

    @Test func everyColumnRoundTrips() throws {
        let ledger = try ScratchLedger()
        var row = Self.sale()
        try ledger.pool.write { db in try row.insertCached(SQLiteSession(db)) }
        let read = try ledger.pool.read { db in try LedgerTransaction.fetchOne(db, key: ["id": row.id]) }
        #expect(read == row)
        #expect(read?.kind == .sale && read?.status == .partiallyApproved && read?.currency == .jpy)
    }

    @Test func aRowWrittenAsTextByAnOlderGatewayReadsAsTheEnums() throws {
        let ledger = try ScratchLedger()
        try ledger.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO payment_transaction
                      (id, merchant_id, kind, status, amount_requested, amount_major, currency, created_at, updated_at)
                    VALUES ('txn_old', 'm_1', 'preAuthorization', 'refunded', 500, 5, 'EUR',
                            '2023-11-14 22:13:20.000', '2023-11-14 22:13:20.000')
                    """)
        }
        let read = try #require(
            try ledger.pool.read { db in try LedgerTransaction.fetchOne(db, key: ["id": "txn_old"]) })
        #expect(read.kind == .preAuthorization && read.status == .refunded && read.currency == .eur)
        #expect(read.createdAt == Self.now)
    }

    @Test func anUnknownStatusIsAnErrorNamingTheColumnAndValue() throws {
        let ledger = try ScratchLedger()
        var row = Self.sale()
        try ledger.pool.write { db in
            try row.insertCached(SQLiteSession(db))
            try db.execute(sql: "UPDATE payment_transaction SET status = 'settled'")
        }
        do {
            _ = try ledger.pool.read { db in try LedgerTransaction.fetchAll(db) }
            Issue.record("a row with an unknown status was read")
        } catch let error as LedgerValueError {
            #expect(error == LedgerValueError(column: "status", value: "settled"))
            #expect(
                error.description
                    == "payment_transaction.status holds \"settled\", which is not a known status.")
        }
    }

    @Test func anUnknownKindOrCurrencyIsAnErrorToo() throws {
        let ledger = try ScratchLedger()
        for (column, value) in [("kind", "chargeback"), ("currency", "XYZ")] {
            try ledger.pool.write { db in
                var fresh = Self.sale()
                try db.execute(sql: "DELETE FROM payment_transaction")
                try fresh.insertCached(SQLiteSession(db))
                try db.execute(sql: "UPDATE payment_transaction SET \(column) = ?", arguments: [value])
            }
            #expect(throws: LedgerValueError(column: column, value: value)) {
                try ledger.pool.read { db in try LedgerTransaction.fetchAll(db) }
            }
        }
    }
}
