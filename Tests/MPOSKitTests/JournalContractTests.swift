import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@testable import MPOSKit

/// The journal's promise with its writes queued off the sale's path: the attempt is on disk
/// before the gateway sees its request, the outcome before the app sees the result, and an
/// attempt whose later updates were lost is still finished by asking the gateway.
@Suite(.serialized, .timeLimit(.minutes(2))) struct JournalContractTests {
    /// Reads the journal, from a connection of its own, the moment an authorisation is sent.
    final class JournalCheckingTransport: GatewayTransport {
        private let base: any GatewayTransport = DroppingTransport()
        private let journalPath: String
        private let seen = Locked<[String?]>([])

        init(journalPath: String) { self.journalPath = journalPath }

        /// The journal state of each authorisation's attempt when it was sent (nil: absent).
        var statesAtAuthorization: [String?] { seen.withLock { $0 } }

        func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
            if request.path == GatewayPaths.authorizeCard {
                let key = request.headers[GatewayHeaders.idempotencyKey] ?? ""
                var configuration = Configuration()
                configuration.readonly = true
                let state = try? await DatabaseQueue(path: journalPath, configuration: configuration).read { db in
                    try String.fetchOne(db, sql: "SELECT state FROM attempt WHERE key = ?", arguments: [key])
                }
                seen.withLock { $0.append(state) }
            }
            return try await base.send(request, to: baseURL)
        }
    }

    @Test func theAttemptIsInTheJournalBeforeTheGatewaySeesTheRequest() async throws {
        let sandbox = try await Sandbox()
        let transport = JournalCheckingTransport(journalPath: sandbox.journalPath)
        let terminal = try await sandbox.terminal(transport: transport)
        let log = EndToEndTests.EventLog(terminal.events.subscribe([.transaction]))

        // Another connection holds the journal's write lock: the terminal's queued writes
        // wait behind it, while the reader goes on to the authorisation request.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: sandbox.journalPath, configuration: configuration)
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur)) }
        #expect(await log.waitFor { $0 == .authorizing })
        // The card is read and the engine wants the gateway; the request must wait for the disk.
        try await blocker.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }

        let result = try await sale.value
        #expect(result.status == .approved)
        #expect(transport.statesAtAuthorization.count == 1)
        let state = try #require(transport.statesAtAuthorization.first)
        #expect(state == JournalEntry.State.created.rawValue || state == JournalEntry.State.authorizing.rawValue)
        // The outcome was on disk when the result came back.
        let entry = try PaymentJournal(path: sandbox.journalPath).entry(key: result.idempotencyKey)
        #expect(entry?.state == .finished && entry?.outcome == .approved)
        try await sandbox.close(terminal)
    }

    @Test func queuedWritesReleaseWaitersOnlyWhenNoDurableWriteIsLeft() async {
        let entry = JournalEntry(
            key: IdempotencyKey(rawValue: "k")!, operation: .card(.sale), readerTransactionID: "r", originalTransactionID: nil,
            amount: 1, currency: .eur,
            state: .created, maskedPAN: nil, gatewayTransactionID: nil, outcome: nil, createdAt: Date(), updatedAt: Date())
        var writes = PaymentJournal.QueuedWrites()
        writes.durableQueued()
        writes.durableQueued()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writes.waiters.append(continuation)
            // An unsynced write and the first durable one leave the waiter waiting.
            #expect(writes.finished(durable: false, failure: nil).isEmpty)
            let failure = PaymentJournal.QueuedWriteFailure(entry: entry, durable: true, error: .journalFailed)
            #expect(writes.finished(durable: true, failure: failure).isEmpty)
            let released = writes.finished(durable: true, failure: nil)
            #expect(released.count == 1 && writes.pendingDurable == 0)
            for waiter in released { waiter.resume() }
        }
        #expect(writes.takeFailures().map(\.entry.key.rawValue) == ["k"])
        #expect(writes.takeFailures().isEmpty)
    }

    @Test func anAttemptStillMarkedCreatedIsAskedAboutAndItsApprovalReversed() async throws {
        let sandbox = try await Sandbox()
        // First run: the authorisation reaches the gateway, then nothing answers any more.
        let transport = DroppingTransport()
        let first = try await sandbox.terminal(transport: transport, clock: ManualClock())
        transport.dropAnswers(to: GatewayPaths.authorizeCard, thenBlock: true)
        let abandoned = Task { try await first.sale(PaymentParameters(amount: 12_34, currency: .eur)) }
        while !transport.isBlocked { try await Task.sleep(for: .milliseconds(20)) }
        // A power loss took the unsynced update to `authorizing`: only the first record is left.
        let unfinished = try PaymentJournal(path: sandbox.journalPath).unfinished()
        try #require(unfinished.count == 1)
        try await DatabaseQueue(path: sandbox.journalPath).write { db in
            try db.execute(sql: "UPDATE attempt SET state = 'created', maskedPAN = NULL")
        }

        // Second run: login asks the gateway, which approved it; the card never completed.
        let second = try await sandbox.terminal(connect: false)
        let entry = try #require(try PaymentJournal(path: sandbox.journalPath).entry(key: unfinished[0].key))
        #expect(entry.state == .finished)
        let id = try #require(entry.gatewayTransactionID)
        let page = try await second.reports.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        abandoned.cancel()
        try await sandbox.close(first)
    }
}
