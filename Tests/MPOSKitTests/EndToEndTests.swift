import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import ReaderSimulator
import SandboxCards
import SandboxGateway
import Testing

@testable import MPOSKit

/// MPOSKit driven as an app drives it, against the real sandbox gateway over HTTP and the
/// simulated reader over TCP, both on loopback ports picked by the system.
@Suite(.serialized) struct EndToEndTests {
    static func sale(_ amount: Int64) -> PaymentParameters { PaymentParameters(amount: amount, currency: .eur) }

    /// Collects a terminal's events in the background.
    final class EventLog: Sendable {
        private let events = Locked<[TerminalEvent]>([])
        private let task: Task<Void, Never>
        init(_ stream: AsyncStream<TerminalEvent>) {
            let events = self.events
            task = Task { for await event in stream { events.withLock { $0.append(event) } } }
        }
        var all: [TerminalEvent] { events.withLock { $0 } }

        /// Waits (briefly, in real time) until an event matches.
        func waitFor(_ match: (TerminalEvent) -> Bool) async -> Bool {
            for _ in 0..<200 {
                if all.contains(where: match) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    @Test func approvesAChipSaleWithPIN() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let log = EventLog(await terminal.subscribe())
        let result = try await terminal.sale(Self.sale(12_34))
        #expect(result.status == .approved)
        #expect(result.approvedAmount == 12_34)
        #expect(result.cvm == .pin && result.pinVerified)
        #expect(result.maskedPAN == "411111******1111")
        #expect(result.authorizationCode?.count == 6)
        #expect(result.emv?.transactionCertificate?.count == 16)
        #expect(result.recovered == false && result.reversed == false)
        let receipt = result.customerReceipt
        #expect(receipt.contains("PIN verified") && receipt.contains("12.34 EUR") && receipt.contains("411111******1111"))
        #expect(!receipt.contains("4111111111111111"))
        #expect(await log.waitFor { $0 == .completed(.approved) })
        let events = log.all
        #expect(events.contains { if case .readerStatus(.pinInput, _, _) = $0 { true } else { false } })
        #expect(events.contains(.card(.inserted)))
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].state == .finished && entries[0].maskedPAN == "411111******1111")
        try await sandbox.close(terminal)
    }

    @Test func theDeclineAmountIsDeclined() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.sale(10_00))
        #expect(result.status == .declined)
        #expect(result.responseCode == "05")
        #expect(result.approvedAmount == 0 && result.reversed == false)
        try await sandbox.close(terminal)
    }

    @Test func anAcceptedSignatureApproves() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let asked = Locked(0)
        await terminal.setSignatureHandler {
            asked.withLock { $0 += 1 }
            return .accept
        }
        let result = try await terminal.sale(Self.sale(30_00))
        #expect(asked.withLock { $0 } == 1)
        #expect(result.status == .approved)
        #expect(result.cvm == .signature)
        #expect(result.customerReceipt.contains("Signature"))
        try await sandbox.close(terminal)
    }

    @Test func theAppChoosesTheApplication() async throws {
        let sandbox = try await Sandbox { $0.cardID = "maestro-mastercard" }
        let terminal = try await sandbox.terminal()
        let offered = Locked<[String]>([])
        await terminal.setApplicationSelectionHandler { candidates in
            offered.withLock { $0 = candidates.map(\.label) }
            return 1
        }
        let result = try await terminal.sale(Self.sale(15_00))
        #expect(offered.withLock { $0.count } == 2)
        #expect(result.status == .approved)
        #expect(result.emv?.aid == "A0000000043060")
        try await sandbox.close(terminal)
    }

    @Test func anApprovalTheCardDeclinesIsReversed() async throws {
        let declining = try #require(SandboxCards.all.first { $0.behaviours.declinesAtSecondGenerateAC })
        let sandbox = try await Sandbox { $0.cardID = declining.id }
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(Self.sale(42_00))
        #expect(result.status == .declined)
        #expect(result.reversed)
        let id = try #require(result.transactionID)
        let page = try await terminal.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.allSatisfy { $0.state == .finished })
        try await sandbox.close(terminal)
    }

    @Test func aLostGatewayAnswerIsResolvedByKeyWithoutASecondCharge() async throws {
        let sandbox = try await Sandbox()
        let transport = DroppingTransport()
        let terminal = try await sandbox.terminal(transport: transport)
        transport.dropAnswers(to: GatewayPaths.authorizeCard)
        let result = try await terminal.sale(Self.sale(12_34))
        #expect(result.status == .approved)
        #expect(result.recovered)
        let sent = transport.sent
        #expect(sent.filter { $0 == "POST \(GatewayPaths.authorizeCard)" }.count == 1)
        #expect(sent.contains("GET \(GatewayPaths.attempt(key: result.idempotencyKey.rawValue))"))
        let page = try await terminal.searchTransactions()
        #expect(page.items.filter { $0.kind == .sale }.count == 1)
        try await sandbox.close(terminal)
    }

    @Test func aSecondOperationIsBusyAndCancelWorksWhileWaitingForACard() async throws {
        let sandbox = try await Sandbox { $0.waitsForCard = true }
        let terminal = try await sandbox.terminal()
        let statuses = await terminal.subscribe([.status])
        let first = Task { try await terminal.sale(Self.sale(5_00)) }
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, true) = event { break }
        }
        await #expect(throws: MPOSError.terminalBusy) { _ = try await terminal.sale(Self.sale(6_00)) }
        await #expect(throws: MPOSError.terminalBusy) {
            _ = try await terminal.refund(transactionID: TransactionID(rawValue: "tx_1")!)
        }
        #expect(await terminal.cancel())
        let result = try await first.value
        #expect(result.status == .cancelled)
        #expect(result.error == .paymentCancelled)
        try await sandbox.close(terminal)
    }

    @Test func noSignatureAnswerWithin45SecondsCancelsAndReverses() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock)
        let asked = Locked(false)
        await terminal.setSignatureHandler {
            asked.withLock { $0 = true }
            try? await Task.sleep(for: .seconds(3600))
            return .accept
        }
        let sale = Task { try await terminal.sale(Self.sale(30_00)) }
        await clock.waitForSleeper(until: .seconds(45))
        #expect(asked.withLock { $0 })
        clock.advance(by: .seconds(45))
        let result = try await sale.value
        #expect(result.status == .declined)
        #expect(result.reversed)
        try await sandbox.close(terminal)
    }

    @Test func refundAndVoidAfterASale() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let sale = try await terminal.sale(Self.sale(50_00))
        let id = try #require(sale.transactionID)
        let refund = try await terminal.refund(transactionID: id, amount: 20_00)
        #expect(refund.status == .approved && refund.kind == .refund && refund.approvedAmount == 20_00)
        let void = try await terminal.void(transactionID: try #require(refund.transactionID))
        #expect(void.status == .approved)
        try await sandbox.close(terminal)
    }

    @Test func anUnfinishedAttemptIsFinishedAtStart() async throws {
        let sandbox = try await Sandbox()
        // First run: the authorisation reaches the gateway, then nothing answers any more,
        // as if the app died.
        let transport = DroppingTransport()
        let first = try await sandbox.terminal(transport: transport, clock: ManualClock())
        transport.dropAnswers(to: GatewayPaths.authorizeCard, thenBlock: true)
        let abandoned = Task { try await first.sale(Self.sale(12_34)) }
        var unfinished: [JournalEntry] = []
        while unfinished.isEmpty || !transport.isBlocked {
            try await Task.sleep(for: .milliseconds(20))
            unfinished = try PaymentJournal(path: sandbox.journalPath).unfinished()
        }
        #expect(unfinished.count == 1 && unfinished[0].state == .authorizing)

        // Second run on the same journal: login finishes it (approved at the gateway, never
        // completed on the card: reversed).
        let second = try await sandbox.terminal(connect: false)
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].state == .finished)
        let id = try #require(entries[0].gatewayTransactionID.flatMap(TransactionID.init(rawValue:)))
        let page = try await second.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        abandoned.cancel()
        try await sandbox.close(first)
    }
}
