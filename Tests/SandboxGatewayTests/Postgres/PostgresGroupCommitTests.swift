import Foundation
import GRDB
import MPOSTestSupport
import Synchronization
import Testing

@testable import SandboxGateway

/// Group commit on PostgreSQL: concurrent writes share commits, each in its own savepoint.
@Suite(
    .timeLimit(.minutes(2)), .enabled(if: LocalPostgres.isInstalled, PostgresTestServer.notInstalled), .postgresServer)
struct PostgresGroupCommitTests {
    static let table = "CREATE TABLE entry (id BIGINT NOT NULL PRIMARY KEY, amount BIGINT NOT NULL)"

    @Test func twoHundredConcurrentWritesAllCommitInFewerTransactions() async throws {
        try await PostgresTestServer.withDatabase { database in
            _ = try await database.write { try $0.execute(sql: Self.table) }
            let writer = database.groupWriter
            let results = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in 1...200 {
                    group.addTask {
                        try await writer.write { session in
                            try session.execute(
                                sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id, id * 10])
                            return id
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(results.sorted() == Array(1...200))
            let (count, sum) = try await database.read { session in
                let row = try #require(try session.fetchOne(sql: "SELECT COUNT(*) AS n, SUM(amount) AS total FROM entry"))
                return (row["n"] as Int, row["total"] as Int)
            }
            #expect(count == 200)
            #expect(sum == (1...200).reduce(0) { $0 + $1 * 10 })
            #expect(writer.committedGroups >= 1)
            #expect(writer.committedGroups < 200, "200 concurrent writes should share commits")
        }
    }

    @Test func oneFailingBodyDoesNotSinkTheOthers() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { session in
                try session.execute(sql: Self.table)
                try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [7, 0])
            }
            let writer = database.groupWriter
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for id in 1...40 {
                    group.addTask {
                        do {
                            // id 7 exists already: that body fails with a unique violation.
                            _ = try await writer.write { session in
                                try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id, 1])
                            }
                            return (id, true)
                        } catch {
                            #expect(SQLSessionError.isUniqueViolation(error), "write \(id): \(error)")
                            return (id, false)
                        }
                    }
                }
                return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.filter { !$0.value }.map(\.key) == [7])
            let ids = try await database.read { session in
                try session.fetchValues(Int.self, sql: "SELECT id FROM entry WHERE amount = 1 ORDER BY id")
            }
            #expect(ids == Array(1...40).filter { $0 != 7 })
        }
    }

    @Test func failedBodyGetsItsOwnErrorAndLeavesNothing() async throws {
        try await PostgresTestServer.withDatabase { database in
            struct Refused: Error {}
            _ = try await database.write { try $0.execute(sql: Self.table) }
            await #expect(throws: Refused.self) {
                try await database.groupWriter.write { session in
                    try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [1, 1])
                    throw Refused()
                }
            }
            let count = try await database.read { try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM entry") }
            #expect(count == 0)
        }
    }

    /// A body that catches a failure inside a savepoint of its own (as an idempotent write
    /// stores a refused request's answer) keeps its other writes and loses only the
    /// savepoint's, although the group's first attempt runs without savepoints.
    @Test func aFailureCaughtInsideABodyUndoesOnlyItsSavepoint() async throws {
        try await PostgresTestServer.withDatabase { database in
            struct Refused: Error {}
            _ = try await database.write { try $0.execute(sql: Self.table) }
            let writer = database.groupWriter
            let caught = try await withThrowingTaskGroup(of: Bool.self) { group in
                for id in stride(from: 1, through: 60, by: 3) {
                    group.addTask {
                        try await writer.write { session in
                            try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id, 1])
                            var refused = false
                            do {
                                try session.inSavepoint {
                                    try session.execute(
                                        sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id + 1, 2])
                                    if id % 2 == 1 { throw Refused() }
                                }
                            } catch is Refused {
                                refused = true
                            }
                            try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id + 2, 3])
                            return refused
                        }
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(caught == 10)
            let rows = try await database.read { session in
                try session.fetchAll(sql: "SELECT id, amount FROM entry ORDER BY id").map { [$0["id"] as Int, $0["amount"] as Int] }
            }
            var expected: [[Int]] = []
            for id in stride(from: 1, through: 60, by: 3) {
                expected.append([id, 1])
                if id % 2 == 0 { expected.append([id + 1, 2]) }
                expected.append([id + 2, 3])
            }
            #expect(rows == expected)
        }
    }

    @Test func writesOnOneLaneStillCommit() async throws {
        var configuration = PostgresGatewayDatabase.Configuration()
        configuration.groupCommitLanes = 1
        configuration.maximumGroupSize = 8
        try await PostgresTestServer.withDatabase(configuration: configuration) { database in
            _ = try await database.write { try $0.execute(sql: Self.table) }
            let writer = database.groupWriter
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 1...50 {
                    group.addTask {
                        _ = try await writer.write { session in
                            try session.execute(sql: "INSERT INTO entry (id, amount) VALUES (?, ?)", arguments: [id, 1])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let count = try await database.read { try $0.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM entry") }
            #expect(count == 50)
            #expect(writer.committedGroups >= 50 / 8)
        }
    }
    /// Parties meet on lane threads: each arrives and waits for the others, for `seconds` at most.
    final class Rendezvous: Sendable {
        private let arrived = Mutex(0)
        private let everyone = DispatchSemaphore(value: 0)
        let parties: Int

        init(parties: Int) { self.parties = parties }

        /// True when every party arrived in time.
        func arriveAndWait(seconds: Int) -> Bool {
            let count = arrived.withLock { count in
                count += 1
                return count
            }
            if count == parties {
                for _ in 1..<parties { everyone.signal() }
                return true
            }
            return everyone.wait(timeout: .now() + .seconds(seconds)) == .success
        }
    }

    /// A sale of the same merchant and day as every other, on card `card`.
    static func sale(_ session: any SQLSession, id: String, card: String, amount: Int) throws {
        try session.execute(
            sql: """
                INSERT INTO payment_transaction (id, merchant_id, kind, status, amount_requested, amount_approved,
                  amount_captured, amount_major, currency, card_fingerprint, created_at, updated_at)
                VALUES (?, 'm_1', 'sale', 'approved', ?, ?, ?, 0, 'EUR', ?, '2026-01-05 10:00:00.000', '2026-01-05 10:00:00.000')
                """,
            arguments: [id, amount, amount, amount, card])
    }

    @Test func twoLanesCommitSalesOfOneMerchantAtOnceWithoutRetries() async throws {
        var twoLanes = PostgresGatewayDatabase.Configuration()
        twoLanes.groupCommitLanes = 2
        try await PostgresTestServer.withDatabase(configuration: twoLanes) { database in
            let writer = database.groupWriter
            // Each body waits inside its group's transaction until the other is inside its own:
            // both only get there if no lock or row makes one group wait for the other.
            let rendezvous = Rendezvous(parties: 2)
            let firstInside = DispatchSemaphore(value: 0)
            async let first = writer.write { session in
                try Self.sale(session, id: "t_1", card: "fp_1", amount: 1_00)
                firstInside.signal()
                return rendezvous.arriveAndWait(seconds: 10)
            }
            // The second write is queued once the first group runs, so it forms a group of its own.
            await withCheckedContinuation { (inside: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    firstInside.wait()
                    inside.resume()
                }
            }
            async let second = writer.write { session in
                try Self.sale(session, id: "t_2", card: "fp_2", amount: 2_00)
                return rendezvous.arriveAndWait(seconds: 10)
            }
            let (met, alsoMet) = try await (first, second)
            #expect(met && alsoMet, "the two groups never were in their transactions at once")
            #expect(writer.retriedGroups == 0)
            #expect(writer.committedGroups == 2)
            // The day's figures are exact once the appended changes are folded in.
            let figures = try await database.write { session -> [Int] in
                try DailyTotalChanges.apply(session)
                let row = try #require(try session.fetchOne(sql: "SELECT n, total, low, high FROM payment_daily_total"))
                return [row["n"], row["total"], row["low"], row["high"]]
            }
            #expect(figures == [2, 3_00, 1_00, 2_00])
        }
    }
}
