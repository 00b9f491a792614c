import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The signature step of the engine: the merchant copy handed over with the prompt, and a
/// missing decision ending the payment as cancelled rather than declined.
@Suite(.timeLimit(.minutes(1)))
struct SignatureEngineTests {
    /// An engine whose host approved, now at the reader's signature prompt.
    static func atTheSignaturePrompt() -> (PaymentEngine, [PaymentEngine.Effect]) {
        var engine = PaymentEngineTests.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(PaymentEngineTests.approved())))
        let effects = engine.handle(.reader(.signatureRequired(transactionID: "r1")))
        return (engine, effects)
    }

    static func reversalOf(_ engine: inout PaymentEngine) -> PaymentResult? {
        let refused = engine.handle(.reader(PaymentEngineTests.outcome(.aac, .invalidSignature)))
        #expect(refused.contains { if case .reverse = $0 { true } else { false } })
        return PaymentEngineTests.finished(engine.handle(.reversalFinished(true)))
    }

    @Test func thePromptCarriesTheMerchantCopyToSign() {
        let (_, effects) = Self.atTheSignaturePrompt()
        var asked: SignatureRequest?
        for case .askSignature(let request) in effects { asked = request }
        let copy = asked?.merchantCopy ?? ""
        #expect(copy.contains("12.34") && copy.contains("A1B2C3") && copy.contains("Cardholder signature"))
        #expect(effects.contains(.emit(.signatureRequired(asked!))))
    }

    @Test func noDecisionInTimeIsCancelledAndReversed() {
        var (engine, _) = Self.atTheSignaturePrompt()
        let verdict = engine.handle(.signatureDecided(nil))
        #expect(verdict.contains(.sendToReader(.signatureVerdict(SignatureVerdict(transactionID: "r1", accepted: false)))))
        let result = Self.reversalOf(&engine)
        #expect(result?.status == .cancelled && result?.error == .paymentCancelled && result?.reversed == true)
    }

    @Test func theReaderTimingOutFirstIsCancelledToo() {
        var (engine, _) = Self.atTheSignaturePrompt()
        let result = Self.reversalOf(&engine)
        #expect(result?.status == .cancelled && result?.reversed == true)
    }

    @Test func aDeclinedSignatureStaysDeclined() {
        var (engine, _) = Self.atTheSignaturePrompt()
        _ = engine.handle(.signatureDecided(.decline))
        let result = Self.reversalOf(&engine)
        #expect(result?.status == .declined && result?.error == nil && result?.reversed == true)
    }
}
