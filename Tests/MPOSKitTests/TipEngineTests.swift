import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The engine's side of the reader's tip prompt: the sale's options go to the reader, the
/// cardholder's tip goes to the gateway with the card, and the result carries it.
@Suite(.timeLimit(.minutes(1)))
struct TipEngineTests {
    static let key = IdempotencyKey(rawValue: "key-tip")!

    static func engine(kind: CardOperation = .sale, options: TipOptions? = TipOptions(percentages: [10, 15, 20], allowsCustomAmount: true))
        -> PaymentEngine
    {
        var parameters = PaymentParameters(amount: 42_00, currency: .eur)
        parameters.tipOptions = options
        return PaymentEngine(
            parameters: parameters, kind: kind, key: key, readerTransactionID: "r1", merchantName: "Cafe",
            now: Date(timeIntervalSince1970: 0))
    }

    static func started(_ effects: [PaymentEngine.Effect]) -> StartTransaction? {
        for case .sendToReader(.startTransaction(let start)) in effects { return start }
        return nil
    }

    static func authorized(_ effects: [PaymentEngine.Effect]) -> AuthorizeCardRequest? {
        for case .authorize(let request, _) in effects { return request }
        return nil
    }

    static func host(tip: Int64, approved: Int64 = 42_00, status: FinancialStatus = .approved) -> Transaction {
        Transaction(
            id: TransactionID(rawValue: "tx_tip")!, kind: .sale, status: status, requestedAmount: 42_00,
            approvedAmount: approved, tipAmount: tip, totalAmount: approved + tip, currency: .eur,
            authorizationCode: "T1P0K0", responseCode: "00", createdAt: Date(timeIntervalSince1970: 0))
    }

    static let tip15 = ReaderMessage.tipEntered(TipEntry(transactionID: "r1", tipAmountMinorUnits: 6_30, percentage: 15))

    @Test func aSaleOffersItsTipOptionsToTheReader() throws {
        var engine = Self.engine()
        let start = try #require(Self.started(engine.handle(.start)))
        #expect(start.tipPercentages == [10, 15, 20] && start.tipAmounts.isEmpty && start.allowsCustomTip)
        #expect(start.amountMinorUnits == 42_00)
    }

    @Test func otherOperationsAndSalesWithoutOptionsShowNoPrompt() throws {
        var authorization = Self.engine(kind: .authorization)
        #expect(try #require(Self.started(authorization.handle(.start))).offersTip == false)
        var plain = Self.engine(options: nil)
        #expect(try #require(Self.started(plain.handle(.start))).offersTip == false)
    }

    @Test func theChosenTipTravelsWithTheCardAndComesBackInTheResult() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        #expect(engine.handle(.reader(Self.tip15)).isEmpty)
        let request = try #require(Self.authorized(engine.handle(.reader(PaymentEngineTests.authorization))))
        #expect(request.tipAmount == 6_30 && request.parameters.amount == 42_00)
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(tip: 6_30))))
        let result = try #require(PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.tc)))))
        #expect(result.status == .approved && result.approvedAmount == 42_00)
        #expect(result.tipAmount == 6_30 && result.tipPercentage == 15 && result.totalAmount == 48_30)
        #expect(result.merchantReceipt.contains("6.30 EUR") && result.merchantReceipt.contains("48.30 EUR"))
    }

    @Test func aTipForAnotherTransactionOrAfterTheAuthorizationIsIgnored() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(.tipEntered(TipEntry(transactionID: "other", tipAmountMinorUnits: 9_99))))
        let request = try #require(Self.authorized(engine.handle(.reader(PaymentEngineTests.authorization))))
        #expect(request.tipAmount == nil)
        _ = engine.handle(.reader(Self.tip15))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(tip: 0))))
        let result = try #require(PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.tc)))))
        #expect(result.tipAmount == 0 && result.tipPercentage == nil && result.totalAmount == 42_00)
    }

    @Test func noTipSendsNoTipAmount() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(.tipEntered(TipEntry(transactionID: "r1", tipAmountMinorUnits: 0))))
        #expect(try #require(Self.authorized(engine.handle(.reader(PaymentEngineTests.authorization)))).tipAmount == nil)
    }

    @Test func aSaleWithoutOptionsIgnoresATipTheReaderReports() throws {
        var engine = Self.engine(options: nil)
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.tip15))
        #expect(try #require(Self.authorized(engine.handle(.reader(PaymentEngineTests.authorization)))).tipAmount == nil)
    }

    @Test func theAttemptSentAgainAfterALostAnswerCarriesTheSameTip() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.tip15))
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayUnreachable)
        let resent = try #require(Self.authorized(engine.handle(.lookedUp(.notFound))))
        #expect(resent.tipAmount == 6_30)
    }

    @Test func aPartialApprovalReportsTheTipTheGatewayKeptWithoutThePercentage() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.tip15))
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(tip: 3_00, status: .partiallyApproved))))
        let result = try #require(PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.tc)))))
        #expect(result.tipAmount == 3_00 && result.tipPercentage == nil && result.totalAmount == 45_00)
    }

    @Test func aDeclineKeepsTheChosenTipInTheTotalAskedFor() throws {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.tip15))
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(tip: 0, approved: 0, status: .declined))))
        let result = try #require(PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.aac)))))
        #expect(result.status == .declined && result.approvedAmount == 0)
        #expect(result.tipAmount == 6_30 && result.totalAmount == 48_30)
    }
}

/// The rules of ``TipOptions``, checked before any I/O with typed errors.
@Suite(.timeLimit(.minutes(1)))
struct TipOptionsValidationTests {
    static func parameters(_ options: TipOptions, amount: Int64 = 42_00) -> PaymentParameters {
        var parameters = PaymentParameters(amount: amount, currency: .eur)
        parameters.tipOptions = options
        return parameters
    }

    static func problem(_ options: TipOptions, amount: Int64 = 42_00) -> MPOSError? {
        do {
            try Self.parameters(options, amount: amount).validate()
            return nil
        } catch { return error }
    }

    @Test func sensibleOptionsPass() throws {
        try Self.parameters(TipOptions(percentages: [10, 15, 20], amounts: [1_00, 2_00], allowsCustomAmount: true)).validate()
        try Self.parameters(TipOptions(allowsCustomAmount: true)).validate()
        try Self.parameters(TipOptions(percentages: [100])).validate()
    }

    @Test func negativeOrZeroPresetsAreRefused() {
        #expect(Self.problem(TipOptions(percentages: [-5])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions(percentages: [0])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions(amounts: [-1_00])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions(amounts: [0])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions(percentages: [-5]))?.message.contains("1 to 100") == true)
    }

    @Test func aPercentageOver100IsRefused() {
        #expect(Self.problem(TipOptions(percentages: [10, 101])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions(percentages: [256])) == .invalidTipOptions)
    }

    @Test func moreThanSixPresetsOrARepeatedOneIsRefused() {
        let seven = Self.problem(TipOptions(percentages: [5, 10, 15, 20], amounts: [1_00, 2_00, 3_00]))
        #expect(seven == .invalidTipOptions && seven?.message.contains("at most 6") == true)
        #expect(Self.problem(TipOptions(percentages: [10, 10])) == .invalidTipOptions)
        #expect(Self.problem(TipOptions()) == .invalidTipOptions)
    }

    @Test func aTotalOverTheMaximumIsRefused() {
        let nearMaximum = GatewayValidation.maximumTotalAmount - 5_00
        let overByAmount = Self.problem(TipOptions(amounts: [5_01]), amount: nearMaximum)
        #expect(overByAmount == .invalidTipOptions && overByAmount?.message.contains("999999999999") == true)
        #expect(Self.problem(TipOptions(amounts: [5_00]), amount: nearMaximum) == nil)
        #expect(Self.problem(TipOptions(percentages: [100]), amount: 600_000_000_000) == .invalidTipOptions)
    }

    @Test func aTipNeedsASaleCapturedAtOnce() {
        var parameters = Self.parameters(TipOptions(percentages: [10]))
        parameters.captureMode = .authUntilCapture
        #expect(throws: MPOSError.invalidTipOptions) { try parameters.validate() }
        parameters.captureMode = .tipAdjustment
        #expect(throws: Never.self) { try parameters.validate() }
    }
}
