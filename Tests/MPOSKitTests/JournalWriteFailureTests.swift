import GRDB
import MPOSCore
import Testing

@testable import MPOSKit

/// A device whose storage refuses the payment's outcome: the terminal retries, then tells the
/// app (an event and a flag on the result), and the payment stands as the gateway made it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct JournalWriteFailureTests {
    /// Makes every write that records an outcome fail, through SQLite itself: a trigger on
    /// the journal's own table, as a failing disk would refuse the write.
    static func refuseOutcomes(in path: String) throws {
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            for verb in ["INSERT", "UPDATE"] {
                try db.execute(sql: """
                    CREATE TRIGGER refuseOutcome\(verb) BEFORE \(verb) ON attempt WHEN NEW.outcome IS NOT NULL
                    BEGIN SELECT RAISE(FAIL, 'the storage refused the write'); END
                    """)
            }
        }
        try database.close()
    }

    static func acceptOutcomes(in path: String) throws {
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: "DROP TRIGGER refuseOutcomeINSERT; DROP TRIGGER refuseOutcomeUPDATE")
        }
        try database.close()
    }

    @Test func anOutcomeTheJournalCannotWriteIsReportedAndThePaymentStands() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        try Self.refuseOutcomes(in: sandbox.journalPath)
        let log = EndToEndTests.EventLog(terminal.events.subscribe())

        let result = try await terminal.sale(EndToEndTests.sale(12_34))
        #expect(result.status == .approved && result.approvedAmount == 12_34)
        #expect(result.journalError?.code == MPOSError.journalFailed.code, "\(String(describing: result.journalError))")
        #expect(await log.waitFor { if case .journalWriteFailed = $0 { true } else { false } })
        // The outcome is not on disk, so the attempt stays unfinished for recovery.
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().count == 1)

        // While the storage still fails, recovery refuses to guess at that attempt.
        await #expect(throws: MPOSError.self) { try await terminal.recovery.recoverUnfinished() }
        // Once it works again, the outcome the terminal kept is written first: the approval
        // the customer was told of is not taken for an unfinished one and reversed.
        try Self.acceptOutcomes(in: sandbox.journalPath)
        #expect(try await terminal.recovery.recoverUnfinished() == 0)
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].state == .finished)
        let sales = try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(sales.count == 1 && sales[0].status == .approved, "the sale stands, charged once")
        try await sandbox.close(terminal)
    }

    @Test func aJournalThatWritesHasNoErrorOnTheResult() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(EndToEndTests.sale(12_35))
        #expect(result.status == .approved && result.journalError == nil)
        try await sandbox.close(terminal)
    }
}
