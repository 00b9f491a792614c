import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// The journal's entries hold typed values: rows written by the previous version (which
/// stored the same text) read back as they were, and a value that does not parse is an
/// error, never replaced.
@Suite(.timeLimit(.minutes(2))) struct JournalEntryTests {
    /// A row as the journal wrote it before its values were typed (and still writes it).
    struct StoredRow {
        var key = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
        var operation = "sale"
        var originalTransactionID: String? = nil
        var currency: String? = "EUR"
        var state = "authorizing"
        var gatewayTransactionID: String? = nil
        var outcome: String? = nil

        /// Inserts the row into the journal file at `path` with SQL of its own.
        func insert(at path: String) throws {
            try DatabaseQueue(path: path).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO attempt (key, operation, readerTransactionID, originalTransactionID, amount, currency,
                            state, maskedPAN, gatewayTransactionID, outcome, createdAt, updatedAt)
                        VALUES (?, ?, 'sdk-0190a1b2', ?, 1234, ?, ?, '476173******0119', ?, ?,
                            '2026-11-25 10:00:00.000', '2026-11-25 10:00:01.250')
                        """,
                    arguments: [key, operation, originalTransactionID, currency, state, gatewayTransactionID, outcome])
            }
        }
    }

    static func journalPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-entry-\(UUID().uuidString)")
            .appendingPathComponent("journal.sqlite").path
    }

    @Test func aRowOfThePreviousVersionReadsBackTyped() throws {
        let path = Self.journalPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let journal = try PaymentJournal(path: path)
        try StoredRow(
            operation: "refund", originalTransactionID: "txn_original", state: "reversing", gatewayTransactionID: "txn_42",
            outcome: "declined"
        ).insert(at: path)

        let entry = try #require(try journal.unfinished().first)
        #expect(entry.key == IdempotencyKey(rawValue: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"))
        #expect(entry.operation == .followUp(.refund))
        #expect(entry.originalTransactionID == TransactionID(rawValue: "txn_original"))
        #expect(entry.currency == .eur && entry.amount == 1234)
        #expect(entry.state == .reversing && entry.outcome == .declined)
        #expect(entry.gatewayTransactionID == TransactionID(rawValue: "txn_42"))
        #expect(entry.readerTransactionID == "sdk-0190a1b2" && entry.maskedPAN == "476173******0119")
        #expect(entry.createdAt == Date(timeIntervalSince1970: 1_795_600_800))
        #expect(abs(entry.updatedAt.timeIntervalSince(entry.createdAt) - 1.25) < 0.001)
    }

    @Test(arguments: [
        ("key", StoredRow(key: "not a key!")),
        ("key", StoredRow(key: "")),
        ("operation", StoredRow(operation: "teleport")),
        ("originalTransactionID", StoredRow(originalTransactionID: "with space")),
        ("currency", StoredRow(currency: "EURO")),
        ("state", StoredRow(state: "limbo")),
        ("gatewayTransactionID", StoredRow(gatewayTransactionID: "")),
        ("outcome", StoredRow(outcome: "maybe")),
    ])
    func aValueThatDoesNotParseIsAnError(column: String, row: StoredRow) throws {
        let path = Self.journalPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let journal = try PaymentJournal(path: path)
        try row.insert(at: path)
        let error = #expect(throws: MPOSError.journalFailed) { try journal.unfinished() }
        #expect(error?.message.contains("the \(column) of an entry does not parse") == true)
        #expect(throws: MPOSError.journalFailed) { try journal.all() }
    }

    /// A transport that fails the test if the terminal sends anything.
    struct NoRequestsExpected: GatewayTransport {
        func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
            Issue.record("unexpected request to \(request.path)")
            throw GatewayTransportError(reason: "no requests expected")
        }
    }

    @Test func aMalformedStoredKeyStopsRecoveryInsteadOfBeingReplaced() async throws {
        let path = Self.journalPath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        _ = try PaymentJournal(path: path)
        try StoredRow(key: "sale #1").insert(at: path)
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: path, transport: NoRequestsExpected())
        // No lookup under a made-up key: the pass fails, and the row stays as it was.
        await #expect(throws: MPOSError.journalFailed) { try await terminal.recovery.recoverUnfinished() }
        let state = try await DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT state FROM attempt") }
        #expect(state == "authorizing")
    }

    @Test func aJournalOfThePreviousVersionIsFinishedByRecovery() async throws {
        let sandbox = try await Sandbox()
        _ = try PaymentJournal(path: sandbox.journalPath)
        // A sale and a refund whose requests never reached the gateway, and a sale it approved
        // whose card never completed (due a reversal), as the previous version left them.
        try StoredRow(key: "old-sale-never-sent").insert(at: sandbox.journalPath)
        try StoredRow(key: "old-refund-never-sent", operation: "refund", originalTransactionID: "txn_x").insert(
            at: sandbox.journalPath)
        let first = try await sandbox.terminal()
        let approved = try await first.sale(PaymentParameters(amount: 12_34, currency: .eur))
        let id = try #require(approved.transactionID)
        await first.disconnect()
        try StoredRow(key: "old-sale-approved", state: "approved", gatewayTransactionID: id.rawValue).insert(
            at: sandbox.journalPath)

        let second = try await sandbox.terminal(connect: false)
        let journal = try PaymentJournal(path: sandbox.journalPath)
        #expect(try journal.unfinished().isEmpty)
        let keys = ["old-sale-never-sent", "old-refund-never-sent", "old-sale-approved"].compactMap(IdempotencyKey.init(rawValue:))
        let entries = try keys.map { key in try #require(try journal.entry(key: key)) }
        #expect(entries.map(\.state) == [.finished, .finished, .finished])
        #expect(entries.map(\.outcome) == [.failed, .failed, .declined])
        let page = try await second.reports.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        try await sandbox.close(second)
    }
}
