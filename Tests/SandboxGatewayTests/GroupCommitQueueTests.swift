import Foundation
import GRDB
import Synchronization
import Testing

@testable import SandboxGateway

/// The group-commit queue both engines share, on an engine that keeps its statements in
/// memory: the test holds the drain until every write waits, so the groups are known.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitQueueTests {
    struct Refused: Error {}
    struct Conflict: Error {}
    struct Closed: Error {}

    /// A session that keeps the statements it ran; a savepoint that throws drops its own.
    final class ScriptSession: SQLSession {
        var dialect: SQLDialect { .sqlite }
        var statements: [String] = []

        func execute(sql: String, arguments: StatementArguments) throws -> Int {
            statements.append(sql)
            return 1
        }
        func fetchAll(sql: String, arguments: StatementArguments) throws -> [Row] { [] }
        func fetchColumn(sql: String, arguments: StatementArguments) throws -> [DatabaseValue] { [] }
        func inSavepoint<T>(_ body: () throws -> T) throws -> T {
            let mark = statements.count
            do {
                return try body()
            } catch {
                statements.removeSubrange(mark...)
                throw error
            }
        }
    }

    /// What the engine was asked to do, and what it will do.
    final class ScriptDatabase: Sendable {
        struct State {
            /// The statements of each committed group, in order.
            var committed: [[String]] = []
            /// Whether each attempt ran with savepoints.
            var attempts: [Bool] = []
            /// The drain the queue asked for, held until the test runs it.
            var drain: (@Sendable (()) -> Void)?
            var closed = false
            /// Failures the next commits meet, one each.
            var commitFailures: [any Error] = []
        }
        let state = Mutex(State())
    }

    struct ScriptEngine: GroupCommitEngine {
        let database: ScriptDatabase

        var concurrentGroups: Int { 1 }

        func startDrain(_ drain: @escaping @Sendable (()) -> Void) -> Bool {
            database.state.withLock { state in
                guard !state.closed else { return false }
                state.drain = drain
                return true
            }
        }

        var closedError: any Error { Closed() }

        func commit(on connection: Void, savepoints: Bool, _ group: (ScriptSession) throws -> Void) throws {
            database.state.withLock { $0.attempts.append(savepoints) }
            let session = ScriptSession()
            try group(session)
            try database.state.withLock { state in
                if !state.commitFailures.isEmpty { throw state.commitFailures.removeFirst() }
                state.committed.append(session.statements)
            }
        }

        func isRetryable(_ error: any Error) -> Bool { error is Conflict }
    }

    /// Queues `count` writes whose bodies run `body(index, session)`, waits until all of them
    /// wait for a group, then drains; returns each write's result by index.
    static func writeTogether(
        _ queue: GroupCommitQueue<ScriptEngine>, _ database: ScriptDatabase, count: Int,
        _ body: @escaping @Sendable (Int, any SQLSession) throws -> Int
    ) async throws -> [Result<Int, any Error>] {
        try await withThrowingTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        return (index, .success(try await queue.write { db in try body(index, db) }))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while queue.waitingWrites < count { await Task.yield() }
            let drain = try #require(database.state.withLock { $0.drain })
            DispatchQueue.global().async { drain(()) }
            var results = [Result<Int, any Error>?](repeating: nil, count: count)
            for try await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    @Test func aBodyThatThrowsLosesOnlyItsOwnChangesAndTheOthersCommitTogether() async throws {
        let database = ScriptDatabase()
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database))
        let results = try await Self.writeTogether(queue, database, count: 4) { index, db in
            try db.execute(sql: "write \(index)")
            if index == 2 { throw Refused() }
            return index
        }
        #expect(results.map { try? $0.get() } == [0, 1, nil, 3])
        #expect(throws: Refused.self) { try results[2].get() }
        let state = database.state.withLock { ($0.committed, $0.attempts) }
        // One group; its bodies in the order they reached the queue, which the tasks race for.
        #expect(state.0.map { $0.sorted() } == [["write 0", "write 1", "write 3"]])
        // Without savepoints first; again with them once a body threw.
        #expect(state.1 == [false, true])
        #expect(queue.committedGroups == 1 && queue.retriedGroups == 0)
    }

    /// Two groups on different connections that change the same cards' rows must take them in
    /// one order, or they deadlock: a group runs its bodies by lock order (bodies without one
    /// first, in arrival order), whatever order they arrived in.
    @Test func aGroupRunsItsBodiesInLockOrder() async throws {
        let database = ScriptDatabase()
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database))
        let orders: [String?] = ["card-c", nil, "card-a", "card-b", "card-a"]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, order) in orders.enumerated() {
                // One at a time into the queue, so the arrival order is the list's.
                while queue.waitingWrites < index { await Task.yield() }
                group.addTask {
                    if let order {
                        _ = try await queue.write(lockOrder: order) { db in try db.execute(sql: "\(order) #\(index)") }
                    } else {
                        _ = try await queue.write { db in try db.execute(sql: "none #\(index)") }
                    }
                }
            }
            while queue.waitingWrites < orders.count { await Task.yield() }
            let drain = try #require(database.state.withLock { $0.drain })
            DispatchQueue.global().async { drain(()) }
            try await group.waitForAll()
        }
        #expect(
            database.state.withLock { $0.committed } == [["none #1", "card-a #2", "card-a #4", "card-b #3", "card-c #0"]])
    }

    @Test func aRetryableFailureAtTheCommitRunsTheWholeGroupAgain() async throws {
        let database = ScriptDatabase()
        database.state.withLock { $0.commitFailures = [Conflict()] }
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database))
        let results = try await Self.writeTogether(queue, database, count: 3) { index, db in
            try db.execute(sql: "write \(index)")
            return index
        }
        #expect(results.map { try? $0.get() } == [0, 1, 2])
        #expect(database.state.withLock { $0.committed }.map { $0.sorted() } == [["write 0", "write 1", "write 2"]])
        #expect(queue.committedGroups == 1 && queue.retriedGroups == 1)
    }

    @Test func aGroupStillFailingAfterItsLastAttemptFailsEveryCaller() async throws {
        let database = ScriptDatabase()
        database.state.withLock { $0.commitFailures = [Conflict(), Conflict(), Conflict()] }
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database), maximumAttempts: 3)
        let results = try await Self.writeTogether(queue, database, count: 2) { index, db in
            try db.execute(sql: "write \(index)")
            return index
        }
        for result in results { #expect(throws: Conflict.self) { try result.get() } }
        #expect(database.state.withLock { $0.committed }.isEmpty)
        #expect(queue.committedGroups == 0 && queue.retriedGroups == 2)
    }

    @Test func groupsTakeAtMostTheirMaximumSize() async throws {
        let database = ScriptDatabase()
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database), maximumGroupSize: 2)
        let results = try await Self.writeTogether(queue, database, count: 5) { index, db in
            try db.execute(sql: "write \(index)")
            return index
        }
        #expect(results.map { try? $0.get() } == [0, 1, 2, 3, 4])
        #expect(database.state.withLock { $0.committed.map(\.count) } == [2, 2, 1])
        #expect(queue.committedGroups == 3)
    }

    @Test func aClosedEngineAnswersTheWaitingCallersWithItsError() async throws {
        let database = ScriptDatabase()
        database.state.withLock { $0.closed = true }
        let queue = GroupCommitQueue(engine: ScriptEngine(database: database))
        await #expect(throws: Closed.self) { try await queue.write { db in try db.execute(sql: "never") } }
        #expect(queue.waitingWrites == 0)
        #expect(database.state.withLock { $0.attempts }.isEmpty)
    }
}
