import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import ReaderLink
import SandboxCards
import Testing

@testable import MPOSKit

/// Every sandbox scenario trigger of docs/test-cards.md played through `PaymentTerminal`
/// against the real sandbox gateway and the simulated reader over TCP: the result the app
/// gets, and what the gateway's search shows afterwards (never an approval left standing
/// when the payment did not complete).
///
/// Covered elsewhere, so not repeated here: 10.00 declined (`EndToEndTests.theDeclineAmountIsDeclined`),
/// 30.00 signature accepted and declined, and the 45 s signature timeout (`EndToEndTests`).
@Suite(.serialized, .timeLimit(.minutes(2))) struct ScenarioEndToEndTests {
    static func eur(_ amount: Int64, allowPartial: Bool = false) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur, allowPartialApproval: allowPartial)
    }

    /// Every transaction the gateway's search shows.
    static func records(on terminal: PaymentTerminal) async throws -> [Transaction] {
        try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100)).items
    }

    /// The gateway's approvals still standing (approved in full or in part, not reversed).
    static func standingApprovals(on terminal: PaymentTerminal) async throws -> [Transaction] {
        try await records(on: terminal).filter { $0.status == .approved || $0.status == .partiallyApproved }
    }

    /// Checks that a payment that never went online left nothing at the gateway and a
    /// finished journal.
    static func expectNothingCharged(_ result: PaymentResult, sandbox: Sandbox, terminal: PaymentTerminal)
        async throws
    {
        #expect(result.transactionID == nil)
        #expect(result.approvedAmount == 0 && result.authorizationCode == nil && !result.reversed)
        #expect(try await records(on: terminal).isEmpty)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
    }

    // MARK: - Reader-side amounts (Handpoint simulator)

    @Test func twentyEurosIsCancelledByTheCardholder() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.eur(20_00))
        #expect(result.status == .cancelled)
        #expect(result.error == .paymentCancelled)
        #expect(result.error?.message.contains("status \(ReaderStatusCode.userCancelled.rawValue)") == true)
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        // The terminal is free again: the next sale goes through.
        #expect(try await terminal.sale(Self.eur(12_00)).status == .approved)
        try await sandbox.close(terminal)
    }

    /// 80.00–80.99: the reader waits the cents in seconds for a card, then times out. The
    /// reader's timeout runs on a manual clock: the test moves it to one second short of the
    /// deadline (nothing happens), then past it.
    @Test(arguments: [80_01, 80_15, 80_99] as [Int64])
    func eightyEurosTimesOutAfterTheCentsInSeconds(amount: Int64) async throws {
        let seconds = Int(amount - 80_00)
        let readerClock = ManualClock()
        let sandbox = try await Sandbox(readerClock: readerClock)
        let terminal = try await sandbox.terminal()
        let sale = Task { try await terminal.sale(Self.eur(amount)) }
        await readerClock.waitForSleeper(until: .seconds(seconds))
        readerClock.advance(by: .seconds(seconds - 1))
        // Still waiting for the card: the timeout has not fired early.
        #expect(readerClock.sleeperCount == 1)
        readerClock.advance(by: .seconds(1))
        let result = try await sale.value
        #expect(result.status == .cancelled)
        #expect(result.error == .paymentCancelled)
        // The Heft seed's EFT_INPUT_TIMEOUT (0x0011), not 0x002A, which is a host communication failure.
        #expect(result.error?.message.contains("status \(ReaderStatusCode.inputTimeout.rawValue)") == true)
        #expect(result.error?.message.contains("status \(ReaderStatusCode.requestPaymentTimeout.rawValue)") == false)
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        try await sandbox.close(terminal)
    }

    // MARK: - Link errors (90.01–90.05)

    @Test func ninetyOOneDropsTheLinkBeforeAuthorizationAndChargesNothing() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.eur(90_01))
        #expect(result.status == .failed)
        #expect(result.error == .readerLinkFailed)
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        await #expect(throws: MPOSError.readerNotConnected) { _ = try await terminal.sale(Self.eur(1_00)) }
        try await sandbox.close(terminal)
    }

    @Test func ninetyOTwoDropsTheLinkAfterTheHostApprovedAndIsReversed() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.eur(90_02))
        #expect(result.status == .declined)
        #expect(result.reversed)
        #expect(result.approvedAmount == 0 && result.authorizationCode == nil)
        let id = try #require(result.transactionID)
        let records = try await Self.records(on: terminal)
        #expect(records.filter { $0.kind == .sale }.map(\.id) == [id], "\(records.map { "\($0.kind) \($0.status)" })")
        #expect(records.first { $0.id == id }?.status == .reversed)
        #expect(try await Self.standingApprovals(on: terminal).isEmpty)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        try await sandbox.close(terminal)
    }

    /// 90.03: the reader's authorization request arrives with a bad checksum and is dropped
    /// (the simulator lets every earlier frame reach the socket before it arms the fault, so
    /// the damaged frame is that one). The reader then waits in silence for a host answer;
    /// the keep-alive's ping brings its next frame, whose counter shows the gap: an integrity
    /// failure closes the link, and the sale fails with nothing sent to the gateway. Played
    /// on a manual clock.
    @Test func ninetyOThreeCorruptsTheAuthorizationFrameAndChargesNothing() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock)
        let sale = try await Self.saleOnKeepAlive(Self.eur(90_03), terminal: terminal, clock: clock)
        let result = try #require(sale)
        #expect(result.transactionID == nil, "the damaged frame was the authorization request")
        #expect(result.status == .failed)
        #expect(result.error == .readerLinkFailed)
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        try await sandbox.close(terminal)
    }

    @Test func ninetyOFourRebootsTheReaderAndChargesNothing() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.eur(90_04))
        #expect(result.status == .failed)
        #expect(result.error == .readerLinkFailed)
        #expect(await sandbox.reader.reboots == 1)
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        try await sandbox.close(terminal)
    }

    /// 90.05: the reader goes silent without closing the link (its link layer too: it no
    /// longer answers pings). The SDK's keep-alive (a ping after a silent 15 s,
    /// docs/reader-protocol.md §6) goes unanswered for the link's 10 s request timeout, and
    /// the sale fails instead of waiting for ever. Played on a manual clock.
    @Test func ninetyOFiveSilencesTheReaderUntilTheKeepAliveTimesOut() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock)
        let reader = sandbox.reader
        let result = try #require(
            try await Self.saleOnKeepAlive(
                Self.eur(90_05), terminal: terminal, clock: clock, waitForAuthorizingStatus: false
            ) {
                // The silence has begun (it may swallow the last status frames still queued).
                await reader.logLines.contains("scenario: the reader stops answering")
            })
        #expect(result.status == .failed)
        #expect(result.error == .readerLinkFailed)
        // Ended by a timeout, never before one could fire: the keep-alive's (a silent 15 s,
        // then the ping's 10 s) or, when the silence began while a request was still waiting
        // for its answer (it happens on a busy machine), that request's own 10 s.
        #expect(clock.now.offset >= .seconds(10), "ended by a link timeout, not before")
        try await Self.expectNothingCharged(result, sandbox: sandbox, terminal: terminal)
        try await sandbox.close(terminal)
    }

    /// Runs a sale while moving the terminal's manual clock from one sleeper's deadline to
    /// the next (the keep-alive's 15 s intervals, its ping's 10 s timeout), so that no real
    /// time passes. The sale must end within 300 s of that time: an interval that still
    /// carries one of the reader's last frames (real I/O, slower than this clock) only
    /// postpones the ping by 15 s, and there are a handful of such frames. Nil, with an issue
    /// recorded, when it does not: the reader is then disconnected so that nothing hangs.
    /// `ready` says when the reader has set the scenario up: time moves only after it.
    static func saleOnKeepAlive(
        _ parameters: PaymentParameters, terminal: PaymentTerminal, clock: ManualClock,
        waitForAuthorizingStatus: Bool = true, ready: @Sendable () async -> Bool = { true }
    ) async throws -> PaymentResult? {
        let finished = Locked(false)
        let statuses = terminal.events.subscribe([.status, .transaction])
        let sale = Task {
            defer { finished.withLock { $0 = true } }
            return try await terminal.sale(parameters)
        }
        // Time stands still until the reader's last status before the scenario plays (or the
        // sale ended first): the start request and everything before it are answered in time.
        if waitForAuthorizingStatus {
            for await event in statuses {
                if case .readerStatus(.waitingHostSend, _, _) = event { break }
                if case .completed = event { break }
            }
        }
        while !finished.withLock({ $0 }), await !ready() { await Task.yield() }
        while !finished.withLock({ $0 }) {
            if let next = clock.nextDeadline, clock.now < next {
                guard next.offset <= .seconds(300) else {
                    Issue.record("no outcome after \(clock.now.offset) of keep-alive; next timer at \(next.offset)")
                    await terminal.disconnect()
                    _ = try? await sale.value
                    return nil
                }
                clock.advance(by: clock.now.duration(to: next))
            }
            await Task.yield()
        }
        return try await sale.value
    }

    // MARK: - Issuer refusals (Adyen's last three digits)

    /// The response code docs/test-cards.md gives each refusal, and the amount that triggers it.
    static let refusals: [(amount: Int64, code: String, reason: SandboxRefusal)] = [
        (11_24, "51", .notEnoughBalance),
        (11_25, "62", .cardBlocked),
        (11_26, "54", .cardExpired),
        (11_27, "13", .invalidAmount),
        (11_28, "14", .invalidCard),
        (11_34, "55", .wrongPIN),
    ]

    @Test func theRefusalTableHasOneDistinctCodePerReason() {
        #expect(Set(Self.refusals.map(\.code)).count == SandboxRefusal.allCases.count)
        #expect(Set(Self.refusals.map(\.reason)) == Set(SandboxRefusal.allCases))
    }

    @Test(arguments: ScenarioEndToEndTests.refusals)
    func anIssuerRefusalIsDeclinedWithItsReason(amount: Int64, code: String, reason: SandboxRefusal) async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.eur(amount))
        #expect(result.status == .declined)
        #expect(result.responseCode == code)
        #expect(result.approvedAmount == 0 && result.authorizationCode == nil)
        #expect(!result.reversed && !result.recovered && result.error == nil)
        #expect(result.customerReceipt.contains("DECLINED") && result.customerReceipt.contains(code))
        let id = try #require(result.transactionID)
        let record = try #require(try await Self.records(on: terminal).first { $0.id == id })
        #expect(record.status == .declined && record.responseCode == code && record.approvedAmount == 0)
        #expect(record.acquirerMessage?.contains("\(reason)") == true, "acquirer message: \(record.acquirerMessage ?? "nil")")
        #expect(try await Self.standingApprovals(on: terminal).isEmpty)
        try await sandbox.close(terminal)
    }

    // MARK: - Partial approval

    /// `visa-debit` holds 500.00: 600.00 is declined `51` unless the sale allows a partial
    /// approval, then approved for the 500.00 left (`10`); with nothing left, declined again.
    @Test func aPartialApprovalNeedsTheFlagAndApprovesWhatIsLeft() async throws {
        let sandbox = try await Sandbox { $0.cardID = "visa-debit" }
        let terminal = try await sandbox.terminal()

        let refused = try await terminal.sale(Self.eur(600_00))
        #expect(refused.status == .declined && refused.responseCode == "51" && refused.approvedAmount == 0)
        #expect(!refused.reversed)

        let partial = try await terminal.sale(Self.eur(600_00, allowPartial: true))
        #expect(partial.status == .approved)
        #expect(partial.requestedAmount == 600_00 && partial.approvedAmount == 500_00)
        #expect(partial.responseCode == "10")
        #expect(partial.authorizationCode?.count == 6)
        #expect(!partial.reversed && partial.emv?.transactionCertificate != nil)
        #expect(partial.customerReceipt.contains("500.00 EUR"))
        let record = try #require(try await Self.records(on: terminal).first { $0.id == partial.transactionID })
        #expect(record.status == .partiallyApproved && record.approvedAmount == 500_00 && record.requestedAmount == 600_00)

        let exhausted = try await terminal.sale(Self.eur(1_00, allowPartial: true))
        #expect(exhausted.status == .declined && exhausted.responseCode == "51")

        let standing = try await Self.standingApprovals(on: terminal)
        #expect(standing.map(\.id) == [try #require(partial.transactionID)])
        try await sandbox.close(terminal)
    }

    // MARK: - Cancel refused

    /// Once the authorisation has left, cancel is refused (the reader no longer allows it)
    /// and the payment completes.
    @Test func aCancelOnceAuthorizingIsRefusedAndTheSaleCompletes() async throws {
        let sandbox = try await Sandbox()
        let terminalBox = Locked<PaymentTerminal?>(nil)
        let cancelAnswers = Locked<[Bool]>([])
        let transport = HookTransport(path: GatewayPaths.authorizeCard) {
            // The gateway has approved; the terminal has not heard it yet.
            guard let terminal = terminalBox.withLock({ $0 }) else { return }
            let accepted = (try? await terminal.cancel()) ?? false
            cancelAnswers.withLock { $0.append(accepted) }
        }
        let terminal = try await sandbox.terminal(transport: transport)
        terminalBox.withLock { $0 = terminal }
        let result = try await terminal.sale(Self.eur(12_34))
        #expect(cancelAnswers.withLock { $0 } == [false])
        #expect(result.status == .approved && result.approvedAmount == 12_34 && result.error == nil)
        let id = try #require(result.transactionID)
        #expect(try await Self.standingApprovals(on: terminal).map(\.id) == [id])
        try await sandbox.close(terminal)
    }
}
