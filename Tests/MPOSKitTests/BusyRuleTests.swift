import Foundation
import MPOSCore
import ReaderLink
import ReaderLinkTCP
import TerminalAPI
import Testing

@testable import MPOSKit

/// One busy rule across the parts: while a card payment or a Terminal API request holds the
/// terminal, every other operation (a payment, a follow-up, a Terminal API request, an update,
/// the app's forward, a recovery) is refused, whichever part it belongs to.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct BusyRuleTests {
    /// A sandbox whose reader waits for a card, and a terminal connected to it through a
    /// transport factory (so that an update could reach it again).
    static func waitingTerminal() async throws -> (Sandbox, PaymentTerminal) {
        let sandbox = try await Sandbox { $0.waitsForCard = true }
        let terminal = try await sandbox.terminal(connect: false)
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret, reconnect: nil) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        await terminal.terminalAPI.setInstallationID(TerminalAPIPerformTests.poiID)
        #expect(await terminal.updates.isInitialized)
        return (sandbox, terminal)
    }

    /// Waits until the reader asks for a card.
    static func untilWaitingForCard(_ statuses: AsyncStream<TerminalEvent>) async {
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, true) = event { return }
        }
    }

    /// Every operation of another part is refused while `holder` runs.
    static func expectEveryOtherRefused(_ terminal: PaymentTerminal, except holder: OperationGate.Operation) async throws {
        #expect(terminal.gate.operation == holder)
        if holder != .cardPayment {
            await #expect(throws: MPOSError.terminalBusy) {
                try await terminal.sale(PaymentParameters(amount: 4_00, currency: .eur))
            }
        }
        await #expect(throws: MPOSError.terminalBusy) {
            try await terminal.refund(transactionID: TransactionID(rawValue: "tx_1")!, amount: 1_00)
        }
        await #expect(throws: MPOSError.terminalBusy) { try await terminal.offline.forward() }
        #expect(await terminal.updates.downloadAndApply().result().type == .terminalBusy)
        // A recovery that finds the terminal busy does nothing: the running operation owns its entry.
        #expect(try await terminal.recovery.recoverUnfinishedAttempts().isEmpty)
        let nexo = try TerminalAPIPerformTests.paymentResponse(
            try await terminal.perform(terminalAPIRequest: TerminalAPIPerformTests.payment("6.00", serviceID: "BR2")))
        #expect(nexo.response.errorCondition == .busy)
        // The holder still holds it.
        #expect(terminal.gate.operation == holder)
    }

    @Test func whileACardPaymentRunsEveryOtherOperationIsRefused() async throws {
        let (sandbox, terminal) = try await Self.waitingTerminal()
        let statuses = terminal.events.subscribe([.status])
        // Unstructured: the sale waits for a card while the test tries everything else.
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 5_00, currency: .eur)) }
        await Self.untilWaitingForCard(statuses)
        try await Self.expectEveryOtherRefused(terminal, except: .cardPayment)
        #expect(try await terminal.cancel())
        #expect(try await sale.value.status == .cancelled)
        #expect(!terminal.gate.isBusy)
        try await sandbox.close(terminal)
    }

    @Test func whileATerminalAPIRequestRunsEveryOtherOperationIsRefused() async throws {
        let (sandbox, terminal) = try await Self.waitingTerminal()
        let statuses = terminal.events.subscribe([.status])
        // Unstructured: the request's payment waits for a card while the test tries everything else.
        let request = Task {
            try await terminal.perform(terminalAPIRequest: TerminalAPIPerformTests.payment("5.00", serviceID: "BR1"))
        }
        await Self.untilWaitingForCard(statuses)
        try await Self.expectEveryOtherRefused(terminal, except: .terminalAPIRequest)
        #expect(try await terminal.cancel())
        #expect(try TerminalAPIPerformTests.paymentResponse(try await request.value).response.result == .failure)
        #expect(!terminal.gate.isBusy)
        try await sandbox.close(terminal)
    }
}
