import Foundation
import GRDB
import GatewayAPI
import MPOSTestSupport
import Testing

@testable import SandboxGateway

/// `webhooks-3-failure-class`: the delivery log's `error` column, which held the socket's
/// error text, becomes `failure`, and the text already stored is replaced by its class on
/// both engines, so that an earlier probe's answers do not stay readable.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct WebhookDeliveryMigrationTests {
    /// (succeeded, status, the old error text) and the class it becomes.
    static let rows: [(succeeded: Bool, status: Int?, error: String?, failure: WebhookDeliveryFailure?)] = [
        (true, 200, nil, nil),
        (false, 503, nil, .httpStatus),
        (false, 307, nil, .redirect),
        (false, nil, "connect(descriptor:addr:size:): Connection refused (errno: 111)", .unreachable),
        (false, nil, "NIOConnectionError(host: 10.0.0.7, port: 22, dnsAError: nil)", .unreachable),
        (false, nil, "HTTPClientError.deadlineExceeded", .timeout),
        (false, nil, "The request timed out.", .timeout),
    ]

    static func insertOldRows(_ db: any SQLSession) throws {
        for (index, row) in rows.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO payment_webhook_delivery
                      (merchant_id, event_id, transaction_id, url, attempt, status_code, error, succeeded, attempted_at)
                    VALUES ('m_old', ?, 'tx_old', 'http://10.0.0.7:22/', 1, ?, ?, ?, '2026-11-01 10:00:00.000')
                    """, arguments: ["evt_old_\(index)", row.status, row.error, row.succeeded])
        }
    }

    static func expectClasses(_ db: any SQLSession) throws {
        let stored = try db.fetchAll(
            sql:
                "SELECT event_id, failure FROM payment_webhook_delivery WHERE merchant_id = 'm_old' ORDER BY event_id",
            arguments: [])
        #expect(stored.count == rows.count)
        for row in stored {
            let index = Int((row["event_id"] as String).dropFirst("evt_old_".count))!
            #expect((row["failure"] as String?) == rows[index].failure?.rawValue, "\(rows[index])")
        }
    }

    @Test func sqliteRowsKeepTheirClassOnly() throws {
        let queue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        GatewayMigrations.register(&migrator)
        try migrator.migrate(queue, upTo: "webhooks-2-pending-index")
        try queue.write { db in try Self.insertOldRows(SQLiteSession(db)) }
        try migrator.migrate(queue)
        try queue.read { db in
            try Self.expectClasses(SQLiteSession(db))
            let columns = try db.columns(in: "payment_webhook_delivery").map(\.name)
            #expect(columns.contains("failure") && !columns.contains("error"))
        }
    }

    @Test(.enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled))
    func postgresRowsKeepTheirClassOnly() async throws {
        try await PostgresTestServer.withDatabase { database in
            // Back to the schema before the migration, with rows logged then.
            try await database.write { db in
                try db.execute(
                    sql: "ALTER TABLE payment_webhook_delivery RENAME COLUMN failure TO error", arguments: [])
                try db.execute(
                    sql: "DELETE FROM schema_migrations WHERE name = 'webhooks-3-failure-class'",
                    arguments: [])
                try Self.insertOldRows(db)
            }
            #expect(try await database.migrate() == ["webhooks-3-failure-class"])
            try await database.read { db in try Self.expectClasses(db) }
        }
    }
}
