import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The engine runs every card operation with the sale's flow; only the reader's kind, the
/// gateway request and the journaled operation differ, and a SEPA mandate does not depend
/// on the card's final cryptogram.
@Suite(.timeLimit(.minutes(2)))
struct CardOperationEngineTests {
    static func engine(_ kind: CardOperation) -> PaymentEngine {
        PaymentEngine(
            parameters: PaymentParameters(amount: 12_34, currency: .eur), kind: kind,
            key: PaymentEngineTests.key,
            readerTransactionID: "r1", merchantName: "Shop", now: Date(timeIntervalSince1970: 0))
    }

    static func host(_ kind: TransactionKind) -> Transaction {
        var transaction = PaymentEngineTests.approved()
        transaction.kind = kind
        return transaction
    }

    @Test(arguments: [
        (CardOperation.authorization, TransactionKind.authorization, CardPaymentKind.authorization),
        (.preAuthorization, .preAuthorization, .preAuthorization),
        (.refundUnreferenced, .refund, .refundUnreferenced),
    ])
    func eachKindStartsTheReaderAndAsksTheGatewayForItself(
        operation: CardOperation, readerKind: TransactionKind, requestKind: CardPaymentKind
    ) {
        var engine = Self.engine(operation)
        let start = engine.handle(.start)
        guard case .journal(let created) = start.first else {
            Issue.record("no journal first")
            return
        }
        #expect(created.operation == .card(operation))
        #expect(
            start.contains {
                if case .sendToReader(.startTransaction(let s)) = $0 { s.kind == readerKind } else { false }
            })
        let effects = engine.handle(.reader(PaymentEngineTests.authorization))
        #expect(
            effects.contains {
                if case .authorize(let request, _) = $0 { request.kind == requestKind } else { false }
            })
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(readerKind))))
        let result = PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.tc))))
        #expect(result?.status == .approved && result?.kind == readerKind)
    }

    @Test func anAuthorizationTheCardDeclinesIsReversed() {
        var engine = Self.engine(.authorization)
        _ = engine.handle(.start)
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(.authorization))))
        let effects = engine.handle(.reader(PaymentEngineTests.outcome(.aac)))
        #expect(effects.contains { if case .reverse = $0 { true } else { false } })
    }

    @Test func aSEPAMandateStandsWithoutATransactionCertificate() {
        var engine = Self.engine(.sepa)
        _ = engine.handle(.start)
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(.sepa))))
        let result = PaymentEngineTests.finished(engine.handle(.reader(PaymentEngineTests.outcome(.aac))))
        #expect(result?.status == .approved && result?.kind == .sepa && result?.reversed == false)
    }

    @Test func aSEPAMandateWhoseSignatureIsRefusedIsReversed() {
        var engine = Self.engine(.sepa)
        _ = engine.handle(.start)
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.host(.sepa))))
        let effects = engine.handle(.reader(PaymentEngineTests.outcome(.aac, .invalidSignature)))
        #expect(effects.contains { if case .reverse = $0 { true } else { false } })
    }
}
