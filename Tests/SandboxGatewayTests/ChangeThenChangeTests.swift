import Foundation
import GRDB
import Testing

@testable import SandboxGateway

/// `SQLSession.execute(sql:arguments:thenIfChanged:arguments:)`: the second change runs only
/// when the first changed a row, on both engines (one statement on PostgreSQL).
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct ChangeThenChangeTests {
    static let claimKSN = "INSERT INTO payment_ksn_seen (ksn) VALUES (?) ON CONFLICT DO NOTHING"
    static func raise(when condition: String) -> String {
        """
        INSERT INTO payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc)
        SELECT ?, ?, ?, ? WHERE \(condition)
        ON CONFLICT (card_fingerprint, psn, transaction_date)
        DO UPDATE SET highest_atc = excluded.highest_atc
        WHERE payment_card_counter.highest_atc < excluded.highest_atc
        """
    }

    @Test(arguments: GatewayTestEngine.allCases)
    func theSecondRunsOnlyWhenTheFirstChangedARow(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let (fresh, seen, stale, highest) = try await harness.gateway.environment.store.database.write {
                db in
                func claim(_ ksn: UInt8, atc: Int) throws -> (first: Int, second: Int) {
                    try db.execute(
                        sql: Self.claimKSN, arguments: [Data([ksn])], thenIfChanged: Self.raise,
                        arguments: ["card-a", 1, "270115", atc])
                }
                let fresh = try claim(1, atc: 10)
                // The same KSN again: nothing inserted, so the counter is not raised though 11 > 10.
                let seen = try claim(1, atc: 11)
                // A new KSN with an ATC not above the highest: inserted, the counter unchanged.
                let stale = try claim(2, atc: 9)
                let highest = try db.fetchValue(
                    Int.self,
                    sql: "SELECT highest_atc FROM payment_card_counter WHERE card_fingerprint = 'card-a'")
                return (fresh, seen, stale, highest)
            }
            #expect(fresh == (first: 1, second: 1))
            #expect(seen == (first: 0, second: 0))
            #expect(stale == (first: 1, second: 0))
            #expect(highest == 10)
        }
    }
}
