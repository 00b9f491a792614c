import Foundation
import GRDB
import GatewayAPI
import Testing

@testable import SandboxGateway

/// `SandboxGatewayConfiguration.groupCommit` reaches every route that writes payments and
/// idempotency keys: the card route, the follow-ups and cash alike.
@Suite(.timeLimit(.minutes(2))) struct GroupCommitConfigurationTests {
    /// A card sale, its void and a cash sale over HTTP, each answered 200.
    static func takePayments(_ harness: GatewayHarness) async throws {
        let token = try await harness.login()
        let sale = try await PaymentHTTPTests.post(
            harness, GatewayPaths.authorizeCard,
            try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 12_34), token: token
        )
        #expect(sale.status == 200)
        let saleID = try sale.decode(Transaction.self).id.rawValue
        let void = try await PaymentHTTPTests.post(
            harness, GatewayPaths.transaction(GatewayPaths.void, id: saleID), VoidRequest(), token: token)
        #expect(void.status == 200)
        let cash = try await PaymentHTTPTests.post(
            harness, GatewayPaths.cashPayment, CashPaymentRequest(amount: 9_99, currency: .eur), token: token)
        #expect(cash.status == 200)
    }

    /// The ledger rows and completed idempotency keys the payments left.
    static func committedRows(_ harness: GatewayHarness) throws -> (ledger: Int, keys: Int) {
        try harness.gateway.environment.store.sqliteWriter.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM payment_transaction") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM idempotencyKey WHERE state = 'completed'")
                    ?? 0
            )
        }
    }

    @Test func withoutGroupCommitCardPaymentsNeverGoThroughTheGroupWriter() async throws {
        try await GatewayHarness.with(groupCommit: false) { harness in
            try await Self.takePayments(harness)
            let environment = harness.gateway.environment
            #expect(environment.ledgerWriter is DirectLedgerWriter)
            #expect(try #require(environment.store.sqliteGroupCommitWriter).committedGroups == 0)
            let rows = try Self.committedRows(harness)
            #expect(rows.ledger == 3 && rows.keys == 3)
        }
    }

    @Test func withGroupCommitCardPaymentsShareTheStoresGroupWriter() async throws {
        try await GatewayHarness.with(groupCommit: true) { harness in
            try await Self.takePayments(harness)
            let environment = harness.gateway.environment
            #expect(environment.ledgerWriter is GroupCommitLedgerWriter)
            // The card sale's one transaction, the void's claim, write and completion, the cash sale's.
            #expect(try #require(environment.store.sqliteGroupCommitWriter).committedGroups >= 3)
            let rows = try Self.committedRows(harness)
            #expect(rows.ledger == 3 && rows.keys == 3)
        }
    }

    @Test func twoGatewayStoresNeverShareAGroupWriter() throws {
        let directory = GatewayStoreTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try GatewayStore(path: directory.appendingPathComponent("a.sqlite").path)
        let second = try GatewayStore(path: directory.appendingPathComponent("b.sqlite").path)
        let writers = (try #require(first.sqliteGroupCommitWriter), try #require(second.sqliteGroupCommitWriter))
        let checkpoints = (try #require(first.checkpoints), try #require(second.checkpoints))
        #expect(writers.0 !== writers.1)
        #expect(checkpoints.0 !== checkpoints.1)
    }
}
