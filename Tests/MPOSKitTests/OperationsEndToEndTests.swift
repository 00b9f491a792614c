import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import Testing

@testable import MPOSKit

/// Authorisations, captures, tips, unreferenced refunds, refund voids, cash and SEPA, driven
/// through `PaymentTerminal` against the real sandbox gateway (and the TCP reader where a
/// card is read), checked against what the gateway's search then shows.
@Suite(.serialized, .timeLimit(.minutes(2))) struct OperationsEndToEndTests {
    static func eur(_ amount: Int64) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur)
    }

    /// The gateway's record of `id`, from its search.
    static func record(_ id: TransactionID?, on terminal: PaymentTerminal) async throws -> Transaction {
        let id = try #require(id)
        let page = try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100))
        return try #require(page.items.first { $0.id == id }, "the search does not show \(id.rawValue)")
    }

    /// A sale carries its basket, instalment plan and descriptor suffix to the gateway, which
    /// accepts them by the rules the SDK checked; a broken basket never leaves the device.
    @Test func aSaleCarriesItsBasketPlanAndDescriptorSuffix() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let basket = Basket(
            items: [
                BasketItem(name: "Coffee", quantity: 2, unitPrice: 3_50, taxBasisPoints: 700),
                BasketItem(name: "Cake", quantity: 1, unitPrice: 4_00, taxBasisPoints: 1_900),
            ], gratuity: 1_00, serviceCharge: 50, location: GeoLocation(latitude: 48.1, longitude: 11.6))
        let sale = try await terminal.sale(
            PaymentParameters(
                amount: 12_50, currency: .eur, statementDescriptor: "Coffee Shop", statementDescriptorSuffix: "Table 4",
                installments: Installments(count: 3), basket: basket))
        #expect(sale.status == .approved && sale.approvedAmount == 12_50)
        #expect(try await Self.record(sale.transactionID, on: terminal).statementDescriptor == "COFFEE SHOP* TABLE 4")
        // Both receipts list the basket and its tax: the local one and the gateway's.
        let remote = try await terminal.receipts.receipt(transactionID: try #require(sale.transactionID))
        for text in [sale.customerReceipt, remote.text(.customer)] {
            for row in ["2 x Coffee", "7.00 EUR", "1 x Cake", "1 x Service charge", "1 x Gratuity",
                "Prices include tax", "Net 7 %", "6.55 EUR", "Tax 19 %", "0.63 EUR"]
            {
                #expect(text.contains(row), "\(row) missing from\n\(text)")
            }
        }

        let before = try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100)).totalCount
        await #expect(throws: MPOSError.invalidBasket) {
            try await terminal.recordCash(PaymentParameters(amount: 12_00, currency: .eur, basket: basket))
        }
        #expect(try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100)).totalCount == before)
        try await sandbox.close(terminal)
    }

    @Test func anAuthorizationIsCapturedInPartOnceOnly() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let hold = try await terminal.authorize(Self.eur(50_00))
        #expect(hold.status == .approved && hold.kind == .authorization)
        #expect(hold.approvedAmount == 50_00 && hold.authorizationCode?.count == 6)
        #expect(hold.maskedPAN == "411111******1111")
        let authorization = try await Self.record(hold.transactionID, on: terminal)
        #expect(authorization.kind == .authorization && authorization.status == .approved)

        let capture = try await terminal.capture(
            transactionID: try #require(hold.transactionID), amount: 42_00)
        #expect(capture.status == .approved && capture.kind == .capture)
        #expect(capture.requestedAmount == 42_00 && capture.approvedAmount == 42_00)
        #expect(capture.transactionID != nil && capture.transactionID != hold.transactionID)
        let captured = try await Self.record(capture.transactionID, on: terminal)
        #expect(
            captured.kind == .capture && captured.originalID == hold.transactionID
                && captured.approvedAmount == 42_00)

        // An authorisation is captured once: the gateway refuses the second, with its reason.
        let again = try await terminal.capture(transactionID: try #require(hold.transactionID))
        #expect(again.status == .failed && again.error == .gatewayRefused && again.transactionID == nil)
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.map(\.operation.rawValue).sorted() == ["authorization", "capture", "capture"])
        #expect(entries.allSatisfy { $0.state == .finished })
        try await sandbox.close(terminal)
    }

    @Test func aPreAuthorizationIsCapturedInFull() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let hold = try await terminal.preAuthorize(Self.eur(75_00))
        #expect(hold.status == .approved && hold.kind == .preAuthorization && hold.approvedAmount == 75_00)
        let capture = try await terminal.capture(transactionID: try #require(hold.transactionID))
        #expect(capture.status == .approved && capture.kind == .capture && capture.approvedAmount == 75_00)
        let preAuthorization = try await Self.record(hold.transactionID, on: terminal)
        #expect(preAuthorization.kind == .preAuthorization)
        let captured = try await Self.record(capture.transactionID, on: terminal)
        #expect(captured.originalID == hold.transactionID && captured.approvedAmount == 75_00)
        try await sandbox.close(terminal)
    }

    @Test func theDeclineAmountDeclinesAnAuthorizationWhichCannotBeCaptured() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let hold = try await terminal.authorize(Self.eur(10_00))
        #expect(hold.status == .declined && hold.kind == .authorization && hold.approvedAmount == 0)
        #expect(hold.responseCode == "05")
        let declined = try await Self.record(hold.transactionID, on: terminal)
        #expect(declined.status == .declined)
        let capture = try await terminal.capture(transactionID: try #require(hold.transactionID))
        #expect(capture.status == .failed && capture.error == .gatewayRefused)
        try await sandbox.close(terminal)
    }

    @Test func aTipIsSetOnASaleTakenWithTipAdjustment() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        var parameters = Self.eur(25_00)
        parameters.captureMode = .tipAdjustment
        let sale = try await terminal.sale(parameters)
        #expect(sale.status == .approved && sale.kind == .sale)
        let tip = try await terminal.adjustTip(
            transactionID: try #require(sale.transactionID), tipAmount: 3_50)
        #expect(tip.status == .approved && tip.kind == .tipAdjustment && tip.approvedAmount == 3_50)
        #expect(tip.transactionID == sale.transactionID)
        let record = try await Self.record(sale.transactionID, on: terminal)
        #expect(record.tipAmount == 3_50 && record.totalAmount == 28_50)
        // A later adjustment replaces the tip.
        let lower = try await terminal.adjustTip(
            transactionID: try #require(sale.transactionID), tipAmount: 2_00)
        #expect(lower.status == .approved)
        #expect(try await Self.record(sale.transactionID, on: terminal).totalAmount == 27_00)

        // A sale taken without tip adjustment takes no tip.
        let plain = try await terminal.sale(Self.eur(26_00))
        let refused = try await terminal.adjustTip(
            transactionID: try #require(plain.transactionID), tipAmount: 1_00)
        #expect(refused.status == .failed && refused.error == .gatewayRefused)
        #expect(try await Self.record(plain.transactionID, on: terminal).tipAmount == 0)
        try await sandbox.close(terminal)
    }

    @Test func anUnreferencedRefundCreditsThePresentedCard() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let refund = try await terminal.refundUnreferenced(Self.eur(7_50))
        #expect(refund.status == .approved && refund.kind == .refund && refund.approvedAmount == 7_50)
        #expect(refund.maskedPAN == "411111******1111")
        let record = try await Self.record(refund.transactionID, on: terminal)
        #expect(record.kind == .refund && record.originalID == nil && record.approvedAmount == 7_50)
        #expect(
            try PaymentJournal(path: sandbox.journalPath).all().map(\.operation) == [.card(.refundUnreferenced)])
        try await sandbox.close(terminal)
    }

    @Test func aRefundIsVoidedAndTheSaleCanBeRefundedAgain() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let sale = try await terminal.sale(Self.eur(40_00))
        let saleID = try #require(sale.transactionID)
        let refund = try await terminal.refund(transactionID: saleID, amount: 15_00)
        #expect(refund.status == .approved && refund.kind == .refund)
        let void = try await terminal.void(transactionID: try #require(refund.transactionID))
        #expect(void.status == .approved && void.kind == .refundVoid)
        #expect(try await Self.record(refund.transactionID, on: terminal).status == .reversed)
        let voidRecord = try await Self.record(void.transactionID, on: terminal)
        #expect(voidRecord.kind == .refundVoid && voidRecord.originalID == refund.transactionID)
        try await sandbox.close(terminal)
    }

    /// The Accept seed's cash payment with the cardholder's name: kept with the payment and
    /// given back; a name the gateway would refuse is refused before anything is sent.
    @Test func aCashPaymentKeepsTheCardholdersName() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let result = try await terminal.recordCash(
            PaymentParameters(amount: 16_00, currency: .eur), cardholderName: "Ada Lovelace")
        #expect(result.status == .approved && result.kind == .cash)
        #expect(result.cardholderName == "Ada Lovelace")
        let record = try await terminal.reports.transaction(try #require(result.transactionID))
        #expect(record.cardholderName == "Ada Lovelace" && record.card == nil)
        await #expect(throws: MPOSError.invalidArgument) {
            try await terminal.recordCash(
                PaymentParameters(amount: 16_01, currency: .eur), cardholderName: String(repeating: "A", count: 46))
        }
        await #expect(throws: MPOSError.invalidArgument) {
            try await terminal.recordCash(PaymentParameters(amount: 16_02, currency: .eur), cardholderName: "Ada\nL")
        }
        #expect(try await terminal.reports.searchTransactions().items.count == 1)
        try await sandbox.close(terminal)
    }

    @Test func cashIsRecordedWithoutAReaderAndCanBeVoided() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let cash = try await terminal.recordCash(
            PaymentParameters(amount: 15_00, currency: .eur, customerReference: "table 4"))
        #expect(
            cash.status == .approved && cash.kind == .cash && cash.approvedAmount == 15_00
                && cash.currency == .eur)
        let record = try await Self.record(cash.transactionID, on: terminal)
        #expect(record.kind == .cash && record.customerReference == "table 4" && record.card == nil)
        let back = try await terminal.recordCash(
            PaymentParameters(amount: 5_00, currency: .usd), refund: true)
        #expect(back.status == .approved && back.kind == .refund && back.currency == .usd)
        #expect(try await Self.record(back.transactionID, on: terminal).approvedAmount == 5_00)
        let void = try await terminal.void(transactionID: try #require(cash.transactionID))
        #expect(void.status == .approved && void.kind == .saleVoid)
        #expect(try await Self.record(cash.transactionID, on: terminal).status == .reversed)
        try await sandbox.close(terminal)
    }

    @Test func aSEPADebitReadsTheCardAndRecordsTheMandate() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let debit = try await terminal.sepaDirectDebit(Self.eur(19_99), mandateReference: "MANDATE-42")
        #expect(debit.status == .approved && debit.kind == .sepa && debit.approvedAmount == 19_99)
        #expect(debit.maskedPAN == "411111******1111")
        let record = try await Self.record(debit.transactionID, on: terminal)
        #expect(
            record.kind == .sepa && record.status == .approved && record.card?.maskedPAN == "411111******1111"
        )
        await #expect(throws: MPOSError.invalidArgument) {
            _ = try await terminal.sepaDirectDebit(PaymentParameters(amount: 1_00, currency: .usd))
        }
        try await sandbox.close(terminal)
    }

    @Test func aLostAuthorizationAnswerIsResolvedByKeyWithoutASecondHold() async throws {
        let sandbox = try await Sandbox()
        let transport = DroppingTransport()
        let terminal = try await sandbox.terminal(transport: transport)
        transport.dropAnswers(to: GatewayPaths.authorizeCard)
        let hold = try await terminal.authorize(Self.eur(60_00))
        #expect(hold.status == .approved && hold.kind == .authorization && hold.recovered)
        #expect(transport.sent.filter { $0 == "POST \(GatewayPaths.authorizeCard)" }.count == 1)
        let id = try #require(hold.transactionID)
        let capturePath = GatewayPaths.transaction(GatewayPaths.capture, id: id.rawValue)
        transport.dropAnswers(to: capturePath)
        let capture = try await terminal.capture(transactionID: id)
        #expect(capture.status == .approved && capture.approvedAmount == 60_00)
        #expect(transport.sent.filter { $0 == "POST \(capturePath)" }.count == 1)
        let page = try await terminal.reports.searchTransactions(TransactionSearchRequest(pageSize: 100))
        #expect(page.items.filter { $0.kind == .authorization }.count == 1)
        #expect(page.items.filter { $0.kind == .capture }.count == 1)
        try await sandbox.close(terminal)
    }

    @Test func anUnfinishedPreAuthorizationIsReversedAtStart() async throws {
        let sandbox = try await Sandbox()
        // First run: the pre-authorisation reaches the gateway, then nothing answers any more,
        // as if the app died.
        let transport = DroppingTransport()
        let first = try await sandbox.terminal(transport: transport, clock: ManualClock())
        transport.dropAnswers(to: GatewayPaths.authorizeCard, thenBlock: true)
        let abandoned = Task { try await first.preAuthorize(Self.eur(81_00)) }
        var unfinished: [JournalEntry] = []
        while unfinished.isEmpty || !transport.isBlocked {
            try await Task.sleep(for: .milliseconds(20))
            unfinished = try PaymentJournal(path: sandbox.journalPath).unfinished()
        }
        #expect(unfinished.count == 1 && unfinished[0].operation == .card(.preAuthorization))

        // Second run on the same journal: login reverses the hold the card never completed.
        let second = try await sandbox.terminal(connect: false)
        let entries = try PaymentJournal(path: sandbox.journalPath).all()
        #expect(entries.count == 1 && entries[0].state == .finished)
        let id = try #require(entries[0].gatewayTransactionID)
        let record = try await Self.record(id, on: second)
        #expect(record.kind == .preAuthorization && record.status == .reversed)
        abandoned.cancel()
        try await sandbox.close(first)
    }

    @Test func invalidArgumentsFailBeforeAnyIO() async throws {
        let transport = DroppingTransport()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mposkit-\(UUID().uuidString)")
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: transport)
        let id = try #require(TransactionID(rawValue: "txn_1"))
        await #expect(throws: MPOSError.amountNotPositive) { _ = try await terminal.authorize(Self.eur(0)) }
        await #expect(throws: MPOSError.amountNotPositive) {
            _ = try await terminal.preAuthorize(Self.eur(-5))
        }
        await #expect(throws: MPOSError.amountNotPositive) {
            _ = try await terminal.refundUnreferenced(Self.eur(0))
        }
        await #expect(throws: MPOSError.amountNotPositive) {
            _ = try await terminal.capture(transactionID: id, amount: 0)
        }
        await #expect(throws: MPOSError.invalidArgument) {
            _ = try await terminal.adjustTip(transactionID: id, tipAmount: -1)
        }
        await #expect(throws: MPOSError.amountNotPositive) { _ = try await terminal.recordCash(Self.eur(0)) }
        await #expect(throws: MPOSError.externalIDTooLong) {
            _ = try await terminal.recordCash(
                PaymentParameters(
                    amount: 1_00, currency: .eur, externalID: String(repeating: "x", count: 51)))
        }
        await #expect(throws: MPOSError.invalidArgument) {
            _ = try await terminal.sepaDirectDebit(
                Self.eur(1_00), mandateReference: String(repeating: "m", count: 36))
        }
        await #expect(throws: MPOSError.invalidArgument) {
            _ = try await terminal.sepaDirectDebit(
                PaymentParameters(amount: 1_00, currency: .gbp))
        }
        // Valid arguments get as far as the missing session.
        await #expect(throws: MPOSError.notLoggedIn) { _ = try await terminal.capture(transactionID: id) }
        await #expect(throws: MPOSError.notLoggedIn) { _ = try await terminal.recordCash(Self.eur(1_00)) }
        #expect(transport.sent.isEmpty)
        try? FileManager.default.removeItem(at: directory)
    }
}
