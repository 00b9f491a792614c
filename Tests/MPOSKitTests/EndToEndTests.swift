import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import SandboxGateway
import Testing

@testable import MPOSKit

/// MPOSKit driven as an app drives it, against the real sandbox gateway over HTTP and the
/// simulated reader over TCP, both on loopback ports picked by the system.
@Suite(.serialized, .timeLimit(.minutes(2))) struct EndToEndTests {
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
        let log = EventLog(terminal.events.subscribe())
        let result = try await terminal.sale(Self.sale(12_34))
        #expect(result.status == .approved)
        #expect(result.approvedAmount == 12_34)
        #expect(result.cvm == .pin && result.pinVerified)
        #expect(result.maskedPAN == "411111******1111")
        #expect(result.authorizationCode?.count == 6)
        #expect(result.emv?.transactionCertificate?.count == 16)
        #expect(result.recovered == false && result.reversed == false)
        let receipt = result.customerReceipt
        #expect(receipt.contains("PIN VERIFIED") && receipt.contains("12.34 EUR") && receipt.contains("411111******1111"))
        #expect(receipt.contains("CUSTOMER COPY") && result.merchantReceipt.contains("MERCHANT COPY"))
        #expect(!receipt.contains("4111111111111111"))
        #expect(await log.waitFor { $0 == .completed(.approved) })
        let events = log.all
        #expect(events.contains { if case .readerStatus(.pinInput, _, _) = $0 { true } else { false } })
        #expect(events.contains(.card(.inserted)))
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].state == .finished && entries[0].maskedPAN == "411111******1111")
        try await sandbox.close(terminal)
    }

    @Test func anEventHandlerHasSeenEverySaleEventWhenTheSaleReturns() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let seen = Locked<[TerminalEvent]>([])
        terminal.events.addHandler([.card, .status, .transaction]) { event in seen.withLock { $0.append(event) } }
        let result = try await terminal.sale(Self.sale(12_35))
        #expect(result.status == .approved)
        // No waiting: the handler ran before the sale went on.
        let events = seen.withLock { $0 }
        // The completion is the sale's last event; the card taken out of the reader may follow.
        #expect(events.filter { $0 != .card(.removed) }.last == .completed(.approved))
        #expect(events.contains(.card(.inserted)))
        #expect(events.contains(.authorizing))
        #expect(events.contains { if case .readerStatus(.pinInput, _, _) = $0 { true } else { false } })
        #expect(!events.contains { if case .readerConnection = $0 { true } else { false } })  // filtered out
        try await sandbox.close(terminal)
    }

    @Test func theCardIsInsertedThenRemovedAroundAChipSale() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let log = EventLog(terminal.events.subscribe([.card]))
        let result = try await terminal.sale(Self.sale(12_37))
        #expect(result.status == .approved)
        // The reader says the card left after the outcome: the app learns it outside the sale.
        #expect(await log.waitFor { $0 == .card(.removed) })
        #expect(log.all == [.card(.inserted), .card(.removed)])
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
        let asked = Locked<[String]>([])
        await terminal.setSignatureHandler { request in
            asked.withLock { $0.append(request.merchantCopy) }
            return .accept
        }
        let result = try await terminal.sale(Self.sale(30_00))
        // The handler got the merchant copy to sign: the approved amount and the signature line.
        let copies = asked.withLock { $0 }
        #expect(copies.count == 1)
        #expect(copies.first?.contains("30.00") == true && copies.first?.contains("Cardholder signature") == true)
        #expect(copies.first?.contains("Approval code") == true)
        #expect(result.status == .approved)
        #expect(result.cvm == .signature)
        #expect(result.customerReceipt.contains("Signed on the merchant copy."))
        #expect(result.merchantReceipt.contains("Cardholder signature"))
        try await sandbox.close(terminal)
    }

    /// The Heft seed's EFT_PIN_INPUT: OK with no digits bypasses the PIN and "will trigger
    /// signature fallback"; the merchant's signature verdict decides, and the issuer approves.
    @Test func aBypassedPINFallsBackToTheMerchantsSignature() async throws {
        let sandbox = try await Sandbox { $0.pinEntry = .bypass }
        let terminal = try await sandbox.terminal()
        let asked = Locked(0)
        await terminal.setSignatureHandler { _ in
            asked.withLock { $0 += 1 }
            return .accept
        }
        let log = EventLog(terminal.events.subscribe())
        let result = try await terminal.sale(Self.sale(12_36))
        #expect(result.status == .approved)
        #expect(result.cvm == .signature && !result.pinVerified)
        #expect(asked.withLock { $0 } == 1)
        #expect(result.merchantReceipt.contains("Cardholder signature"))
        #expect(await log.waitFor { $0 == .completed(.approved) })
        #expect(log.all.contains { if case .readerStatus(.pinInput, _, _) = $0 { true } else { false } })
        #expect(!log.all.contains { if case .pinEntry = $0 { true } else { false } })  // no digit typed
        try await sandbox.close(terminal)
    }

    /// Bypassed and then declined by the merchant: nothing is charged.
    @Test func aBypassedPINWhoseSignatureIsDeclinedChargesNothing() async throws {
        let sandbox = try await Sandbox { $0.pinEntry = .bypass }
        let terminal = try await sandbox.terminal()
        await terminal.setSignatureHandler { _ in .decline }
        let result = try await terminal.sale(Self.sale(12_37))
        #expect(result.status != .approved)
        #expect(result.approvedAmount == 0)
        let charged = try await terminal.reports.searchTransactions().items.filter { $0.status.isApproval && $0.kind == .sale }
        #expect(charged.isEmpty)
        try await sandbox.close(terminal)
    }

    /// The Heft seed's EFT_AMOUNT_VALIDATION: the cardholder confirms the amount before the card prompt.
    @Test func theCardholderConfirmsTheAmountBeforeTheCardPrompt() async throws {
        let sandbox = try await Sandbox { $0.confirmsAmount = true }
        let terminal = try await sandbox.terminal()
        let log = EventLog(terminal.events.subscribe([.status]))
        let result = try await terminal.sale(Self.sale(12_41))
        #expect(result.status == .approved)
        // The stream may trail the sale: wait for the card prompt, which comes after the confirmation.
        #expect(await log.waitFor { if case .readerStatus(.waitingCard, _, _) = $0 { true } else { false } })
        let statuses = log.all.compactMap { event -> ReaderStatusCode? in
            if case .readerStatus(let code, _, _) = event { code } else { nil }
        }
        let confirmed = try #require(statuses.firstIndex(of: .amountValidation))
        let prompted = try #require(statuses.firstIndex(of: .waitingCard))
        #expect(confirmed < prompted)
        try await sandbox.close(terminal)
    }

    /// Cancelled at the amount confirmation (the reader allows it): nothing is charged.
    @Test func aCancelAtTheAmountConfirmationChargesNothing() async throws {
        let readerClock = ManualClock()
        let sandbox = try await Sandbox(readerClock: readerClock) {
            $0.confirmsAmount = true
            $0.humanDelay = .seconds(5)
        }
        let terminal = try await sandbox.terminal()
        let statuses = terminal.events.subscribe([.status])
        let sale = Task { try await terminal.sale(Self.sale(12_42)) }
        for await event in statuses {
            if case .readerStatus(.amountValidation, _, _) = event { break }
        }
        #expect(try await terminal.cancel())
        let result = try await sale.value
        #expect(result.status == .cancelled && result.approvedAmount == 0)
        #expect(try await terminal.reports.searchTransactions().items.filter { $0.status.isApproval }.isEmpty)
        try await sandbox.close(terminal)
    }

    /// The Heft seed's EFT_WAITING_CARD_REMOVAL: a card left from an earlier transaction ends the
    /// next one ("remove the card and restart the operation"); the one after goes ahead.
    @Test func aCardLeftInTheReaderEndsThePaymentUntilItIsRemoved() async throws {
        let sandbox = try await Sandbox { $0.cardLeftInReader = true }
        let terminal = try await sandbox.terminal()
        let log = EventLog(terminal.events.subscribe())
        let first = try await terminal.sale(Self.sale(12_43))
        #expect(first.status != .approved && first.approvedAmount == 0)
        #expect(first.error?.message.contains("status \(ReaderStatusCode.waitingCardRemoval.rawValue).") == true)
        // The stream may trail the payment: wait for what the reader said.
        #expect(await log.waitFor { $0 == .card(.removed) })
        #expect(await log.waitFor { if case .readerStatus(.waitingCardRemoval, _, _) = $0 { true } else { false } })
        let second = try await terminal.sale(Self.sale(12_43))
        #expect(second.status == .approved)
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
        let page = try await terminal.reports.searchTransactions()
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
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.filter { $0.kind == .sale }.count == 1)
        try await sandbox.close(terminal)
    }

    @Test func aSecondOperationIsBusyAndCancelWorksWhileWaitingForACard() async throws {
        let sandbox = try await Sandbox { $0.waitsForCard = true }
        let terminal = try await sandbox.terminal()
        let statuses = terminal.events.subscribe([.status])
        let first = Task { try await terminal.sale(Self.sale(5_00)) }
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, true) = event { break }
        }
        await #expect(throws: MPOSError.terminalBusy) { _ = try await terminal.sale(Self.sale(6_00)) }
        await #expect(throws: MPOSError.terminalBusy) {
            _ = try await terminal.refund(transactionID: TransactionID(rawValue: "tx_1")!)
        }
        #expect(try await terminal.cancel())
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
        await terminal.setSignatureHandler { _ in
            asked.withLock { $0 = true }
            try? await Task.sleep(for: .seconds(3600))
            return .accept
        }
        let sale = Task { try await terminal.sale(Self.sale(30_00)) }
        await clock.waitForSleeper(until: .seconds(45))
        #expect(asked.withLock { $0 })
        clock.advance(by: .seconds(45))
        let result = try await sale.value
        #expect(result.status == .cancelled)
        #expect(result.error == .paymentCancelled)
        #expect(result.reversed)
        try await sandbox.close(terminal)
    }

    /// Handpoint's default: with nobody to judge the signature the reader is never told yes,
    /// and the signature timeout cancels the payment.
    @Test func withoutASignatureHandlerTheTimeoutCancelsThePayment() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock)
        let prompts = Locked<[SignatureRequest]>([])
        terminal.events.addHandler([.prompt]) { event in
            if case .signatureRequired(let request) = event { prompts.withLock { $0.append(request) } }
        }
        let sale = Task { try await terminal.sale(Self.sale(30_00)) }
        await clock.waitForSleeper(until: .seconds(45))
        clock.advance(by: .seconds(44))
        #expect(prompts.withLock { $0.count } == 1)
        clock.advance(by: .seconds(1))
        let result = try await sale.value
        #expect(result.status == .cancelled)
        #expect(result.approvedAmount == 0 && result.reversed)
        #expect(prompts.withLock { $0.first?.merchantCopy.contains("Cardholder signature") } == true)
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
        let id = try #require(entries[0].gatewayTransactionID)
        let page = try await second.reports.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        abandoned.cancel()
        try await sandbox.close(first)
    }

    @Test func aReaderLostWhileTheHostApprovesIsReversed() async throws {
        let sandbox = try await Sandbox()
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        // The socket to the reader closes the moment the gateway's approval arrives.
        let transport = HookTransport(path: GatewayPaths.authorizeCard) {
            await link.close()
            // Let the link's closing reach the terminal first, as a real drop would.
            try? await Task.sleep(for: .milliseconds(50))
        }
        let terminal = try await sandbox.terminal(transport: transport, connect: false)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        let result = try await terminal.sale(Self.sale(12_34))
        #expect(result.status == .declined)
        #expect(result.reversed)
        let id = try #require(result.transactionID)
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.first { $0.id == id }?.status == .reversed)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        try await sandbox.close(terminal)
    }

    @Test func aReaderLostBeforeAuthorizationChargesNothing() async throws {
        let sandbox = try await Sandbox { $0.waitsForCard = true }
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        let terminal = try await sandbox.terminal(connect: false)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        let statuses = terminal.events.subscribe([.status])
        let sale = Task { try await terminal.sale(Self.sale(12_34)) }
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, _) = event { break }
        }
        await link.close()
        let result = try await sale.value
        #expect(result.status == .failed)
        #expect(result.error == .readerLinkFailed)
        #expect(result.transactionID == nil)
        #expect(try await terminal.reports.searchTransactions().items.isEmpty)
        await #expect(throws: MPOSError.readerNotConnected) { _ = try await terminal.sale(Self.sale(1_00)) }
        try await sandbox.close(terminal)
    }

    @Test func aClientTokenFromTheAppsBackendWorks() async throws {
        let sandbox = try await Sandbox()
        let baseURL = sandbox.gateway.baseURL
        let apiKey = sandbox.credentials.apiKey
        let minted = Locked(0)
        let terminal = try PaymentTerminal(
            environment: baseURL,
            credentials: .clientToken {
                minted.withLock { $0 += 1 }
                var request = URLRequest(url: baseURL.appendingPathComponent("v1/client-tokens"))
                request.httpMethod = "POST"
                request.setValue(apiKey, forHTTPHeaderField: GatewayHeaders.apiKey)
                let (data, _) = try await URLSession.shared.data(for: request)
                return try GatewayJSON.makeDecoder().decode(ClientToken.self, from: data).token
            }, journalPath: sandbox.journalPath)
        try await terminal.login()
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        let result = try await terminal.sale(Self.sale(7_00))
        #expect(result.status == .approved)
        #expect(minted.withLock { $0 } >= 1)
        try await sandbox.close(terminal)
    }

    @Test func invalidParametersFailBeforeAnyIO() async throws {
        let transport = DroppingTransport()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: transport)
        await #expect(throws: MPOSError.amountNotPositive) { _ = try await terminal.sale(Self.sale(0)) }
        await #expect(throws: MPOSError.invalidStatementDescriptor) {
            _ = try await terminal.sale(PaymentParameters(amount: 1, currency: .eur, statementDescriptor: "<b>"))
        }
        await #expect(throws: MPOSError.notLoggedIn) { _ = try await terminal.sale(Self.sale(1_00)) }
        #expect(transport.sent.isEmpty)
        try? FileManager.default.removeItem(at: directory)
    }

    /// The Heft seed's `reference` ("string for customer reference") on a card sale: kept with
    /// the gateway's record and given back with it, apart from the external id.
    @Test func aCustomerReferenceOnACardSaleIsKeptWithTheTransaction() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(
            PaymentParameters(amount: 12_44, currency: .eur, customerReference: "table 12", externalID: "pos-77"))
        #expect(result.status == .approved)
        let record = try await terminal.reports.transaction(try #require(result.transactionID))
        #expect(record.customerReference == "table 12")
        #expect(record.externalID == "pos-77")
        try await sandbox.close(terminal)
    }

    @Test func aDuplicateTheGatewayRefusesFailsAndIsFinished() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let parameters = PaymentParameters(amount: 12_34, currency: .eur, customerReference: "order-1")
        let first = try await terminal.sale(parameters)
        #expect(first.status == .approved)
        let second = try await terminal.sale(parameters)
        #expect(second.status == .failed)
        #expect(second.error == .gatewayRefused)
        #expect(second.error?.message.contains("\(GatewayErrorCode.duplicatePayment)") == true)
        let journal = try PaymentJournal(path: sandbox.journalPath)
        #expect(try journal.unfinished().isEmpty)
        #expect(try journal.pragma("journal_mode") == "wal")
        #expect(try journal.pragma("synchronous") == "2")
        try await sandbox.close(terminal)
    }

    @Test func aDeclinedSignatureIsDeclinedAndTheApprovalReversed() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        await terminal.setSignatureHandler { _ in .decline }
        let result = try await terminal.sale(Self.sale(30_00))
        #expect(result.status == .declined)
        #expect(result.reversed)
        #expect(!result.customerReceipt.contains("Approval code"))
        try await sandbox.close(terminal)
    }

    /// The gateway approved a sale whose answer and every lookup after it were lost: the card
    /// declined it and the app heard "unreachable", while the approval stood at the gateway.
    /// The next sale reverses it before it starts, instead of leaving the customer charged
    /// twice until the next login.
    @Test func aSaleWhoseOutcomeStayedUnknownIsReversedBeforeTheNextOne() async throws {
        let sandbox = try await Sandbox()
        let outage = ChaosTransport()
        // The lookups' back-off (0.5–8 s) passes at once; the reader link's timers (10 s and
        // more) never fire, so the link stays up through the outage.
        let clock = ShortWaitsPassClock(upTo: .seconds(8))
        let terminal = try await sandbox.terminal(transport: outage, clock: clock)
        outage.goDown(reaching: GatewayPaths.authorizeCard)
        let unknown = try await terminal.sale(Self.sale(21_00))
        #expect(outage.lostWhileDown == 1 + RetryPolicy.standard.maximumLookups)
        #expect(unknown.status == .failed && unknown.error == .gatewayUnreachable)
        #expect(unknown.transactionID == nil)
        outage.comeBack()
        let standing = try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(standing.map(\.status) == [.approved])

        let second = try await terminal.sale(Self.sale(22_00))
        #expect(second.status == .approved)
        let sales = try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(sales.first { $0.id == second.transactionID }?.status == .approved)
        #expect(sales.first { $0.id == standing.first?.id }?.status == .reversed)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        try await sandbox.close(terminal)
    }

    /// The gateway made the refund, then stayed out of reach through every lookup: the app
    /// hears "unreachable". Asking for the same refund again resumes it under its key, and
    /// the gateway answers the refund it made: one refund, not two.
    @Test func aRefundWhoseOutcomeStayedUnknownIsResumedNotMadeTwice() async throws {
        let sandbox = try await Sandbox()
        let seller = try await sandbox.terminal()
        let sale = try await seller.sale(Self.sale(40_00))
        let id = try #require(sale.transactionID)
        await seller.disconnect()

        let refundPath = GatewayPaths.transaction(GatewayPaths.refund, id: id.rawValue)
        let outage = ChaosTransport()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(transport: outage, clock: clock, connect: false)
        outage.goDown(reaching: refundPath)
        let done = Locked(false)
        let first = Task {
            defer { done.withLock { $0 = true } }
            return try await terminal.refund(transactionID: id, amount: 15_00)
        }
        // The lookups wait on the terminal's clock between tries: let them all run.
        while !done.withLock({ $0 }) {
            if clock.sleeperCount > 0 { clock.advance(by: .seconds(60)) } else { try await Task.sleep(for: .milliseconds(1)) }
        }
        let unknown = try await first.value
        #expect(outage.lostWhileDown == 1 + RetryPolicy.standard.maximumLookups)
        #expect(unknown.status == .failed && unknown.error == .gatewayUnreachable)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().map(\.key) == [unknown.idempotencyKey])

        outage.comeBack()
        let again = try await terminal.refund(transactionID: id, amount: 15_00)
        #expect(again.status == .approved && again.approvedAmount == 15_00)
        #expect(again.idempotencyKey == unknown.idempotencyKey)
        let refunds = try await terminal.reports.searchTransactions().items.filter { $0.kind == .refund }
        #expect(refunds.map(\.id) == [try #require(again.transactionID)])
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)

        // A refund asked for afresh (another amount) is a new one.
        let more = try await terminal.refund(transactionID: id, amount: 5_00)
        #expect(more.status == .approved && more.idempotencyKey != unknown.idempotencyKey)
        try await sandbox.close(terminal)
    }

    @Test func aLostRefundAnswerIsResolvedByKeyWithoutASecondRefund() async throws {
        let sandbox = try await Sandbox()
        let transport = DroppingTransport()
        let terminal = try await sandbox.terminal(transport: transport)
        let sale = try await terminal.sale(Self.sale(25_00))
        let id = try #require(sale.transactionID)
        let refundPath = GatewayPaths.transaction(GatewayPaths.refund, id: id.rawValue)
        transport.dropAnswers(to: refundPath)
        let refund = try await terminal.refund(transactionID: id, amount: 5_00)
        #expect(refund.status == .approved && refund.approvedAmount == 5_00)
        #expect(transport.sent.filter { $0 == "POST \(refundPath)" }.count == 1)
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.filter { $0.kind == .refund }.count == 1)
        try await sandbox.close(terminal)
    }
}

/// The Heft seed's EFT_ACCOUNT_TYPE_SELECTION (0x0032): the reader asks the cardholder for
/// the account, and the choice travels to the host as 5F57 and back in the result.
@Suite(.timeLimit(.minutes(2)))
struct AccountSelectionTests {
    @Test func theCardholderPicksSavingsAndTheResultSaysSo() async throws {
        let sandbox = try await Sandbox { $0.accountSelection = .savings }
        let terminal = try await sandbox.terminal()
        let log = EndToEndTests.EventLog(terminal.events.subscribe([.status]))
        let result = try await terminal.sale(PaymentParameters(amount: 12_61, currency: .eur))
        #expect(result.status == .approved)
        #expect(result.emv?.accountType == .savings)
        #expect(result.customerReceipt.contains("Savings"))
        #expect(await log.waitFor { if case .readerStatus(.accountTypeSelection, _, _) = $0 { true } else { false } })
        try await sandbox.close(terminal)
    }

    @Test func aReaderThatDoesNotAskLeavesTheAccountOut() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(PaymentParameters(amount: 12_62, currency: .eur))
        #expect(result.status == .approved && result.emv?.accountType == nil)
        try await sandbox.close(terminal)
    }

    @Test func aCancelAtTheAccountSelectionChargesNothing() async throws {
        let readerClock = ManualClock()
        let sandbox = try await Sandbox(readerClock: readerClock) {
            $0.accountSelection = .chequeDebit
            $0.humanDelay = .seconds(5)
        }
        let terminal = try await sandbox.terminal()
        let statuses = terminal.events.subscribe([.status])
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 12_63, currency: .eur)) }
        for await event in statuses {
            if case .readerStatus(.waitingCard, _, _) = event {
                // The card is presented after the cardholder's delay, on the reader's clock.
                let presented = readerClock.now.offset + .seconds(5)
                await readerClock.waitForSleeper(until: presented)
                readerClock.advance(by: .seconds(5))
            }
            if case .readerStatus(.accountTypeSelection, _, _) = event { break }
        }
        #expect(try await terminal.cancel())
        let result = try await sale.value
        #expect(result.status == .cancelled && result.approvedAmount == 0)
        #expect(try await terminal.reports.searchTransactions().items.filter { $0.status.isApproval }.isEmpty)
        try await sandbox.close(terminal)
    }
}
