import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The sale's offline branch in the pure engine: "unable to go online" to the card, the
/// card's TC stored before the result, and what is never taken offline.
@Suite(.timeLimit(.minutes(2)))
struct OfflineEngineTests {
    static let key = PaymentEngineTests.key

    static func engine(
        _ parameters: PaymentParameters = PaymentParameters(
            amount: 12_34, currency: .eur, offlineAllowed: true),
        kind: CardOperation = .sale
    ) -> PaymentEngine {
        PaymentEngine(
            parameters: parameters, kind: kind, key: key, readerTransactionID: "r1", merchantName: "Shop",
            now: Date(timeIntervalSince1970: 0), retry: .offlineSale)
    }

    static func authorization(_ entryMode: CardEntryMode = .chip) -> ReaderMessage {
        .authorizationRequest(
            AuthorizationRequest(
                transactionID: "r1", emvData: [0x9F, 0x26, 0x01, 0x00], encryptedCardData: [0x01],
                ksn: [0x02],
                maskedPAN: "411111******1111", expiry: "4912", entryMode: entryMode, cvm: .pin))
    }

    static let finalEMV: [UInt8] = [0x9F, 0x27, 0x01, 0x40, 0x9F, 0x26, 0x02, 0xAB, 0xCD]

    static func cardSaid(_ kind: CryptogramKind) -> ReaderMessage {
        .transactionOutcome(
            TransactionOutcome(
                transactionID: "r1", cryptogramType: kind, emvData: finalEMV,
                status: kind == .tc ? .success : .cardCancelled,
                cvm: .pin, entryMode: .chip, pinVerified: true))
    }

    /// Starts, reads the card and loses the gateway until the engine gives up asking.
    static func unreachable(_ engine: inout PaymentEngine, entryMode: CardEntryMode = .chip) -> [PaymentEngine
        .Effect]
    {
        _ = engine.handle(.start)
        _ = engine.handle(.reader(authorization(entryMode)))
        var last = engine.handle(.gatewayUnreachable)
        for _ in 0..<RetryPolicy.offlineSale.maximumLookups { last = engine.handle(.lookedUp(.unreachable)) }
        return last
    }

    static func hostResponseCode(_ effects: [PaymentEngine.Effect]) -> String? {
        for case .sendToReader(.hostResponse(let host)) in effects { return host.authorizationResponseCode }
        return nil
    }

    @Test func theCardIsToldTheTerminalCouldNotGoOnlineAndItsTCIsStoredBeforeTheResult() throws {
        var engine = Self.engine()
        let told = Self.unreachable(&engine)
        #expect(Self.hostResponseCode(told) == "Z3")
        let card = engine.handle(.reader(Self.cardSaid(.tc)))
        #expect(PaymentEngineTests.finished(card) == nil)
        guard case .storeOffline(let request, let key) = card.last else {
            Issue.record("no store effect: \(card)")
            return
        }
        #expect(key == Self.key)
        #expect(request.emvData == Hex.encode(Self.finalEMV))
        #expect(request.parameters.duplicateCheck == false && request.parameters.amount == 12_34)
        let id = UUID()
        let done = engine.handle(.offlineStored(.success(id)))
        let result = try #require(PaymentEngineTests.finished(done))
        #expect(result.status == .approvedOffline && result.offlineID == id && result.approvedAmount == 12_34)
        #expect(result.transactionID == nil)
        // The store owns the attempt: the journal entry ends, so recovery never also settles it.
        for case .journal(let entry) in done {
            #expect(entry.state == .finished && entry.outcome == .approvedOffline)
        }
        #expect(engine.entry.state == .finished)
    }

    @Test func withoutOfflineAllowedTheCardDeclinesAsBefore() {
        var engine = Self.engine(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(Self.hostResponseCode(Self.unreachable(&engine)) == "")
        let result = PaymentEngineTests.finished(engine.handle(.reader(Self.cardSaid(.aac))))
        #expect(result?.status == .failed && result?.error == .gatewayUnreachable)
    }

    @Test func aCardThatDeclinesOfflineIsDeclinedAndItsUnknownAttemptStaysForRecovery() {
        var engine = Self.engine()
        _ = Self.unreachable(&engine)
        let effects = engine.handle(.reader(Self.cardSaid(.aac)))
        #expect(!effects.contains { if case .storeOffline = $0 { true } else { false } })
        #expect(PaymentEngineTests.finished(effects)?.status == .declined)
        // The online attempt may have reached the gateway: recovery must still ask about it.
        #expect(engine.entry.state == .authorizing)
    }

    @Test func aStoreThatFailsFailsTheSale() {
        var engine = Self.engine()
        _ = Self.unreachable(&engine)
        _ = engine.handle(.reader(Self.cardSaid(.tc)))
        let result = PaymentEngineTests.finished(engine.handle(.offlineStored(.failure(.offlineStoreFailed))))
        #expect(result?.status == .failed && result?.error == .offlineStoreFailed && result?.offlineID == nil)
    }

    @Test(arguments: [CardEntryMode.magstripe, .magstripeFallback])
    func aSwipeNeedsTheGateway(entryMode: CardEntryMode) {
        var engine = Self.engine()
        #expect(Self.hostResponseCode(Self.unreachable(&engine, entryMode: entryMode)) == "")
        let result = PaymentEngineTests.finished(engine.handle(.reader(Self.cardSaid(.aac))))
        #expect(result?.status == .failed && result?.error?.code == MPOSError.Code.onlineRequired)
    }

    @Test func onlySalesAreTakenOffline() {
        for kind in [CardOperation.refundUnreferenced, .authorization, .preAuthorization] {
            var engine = Self.engine(kind: kind)
            #expect(Self.hostResponseCode(Self.unreachable(&engine)) == "", "\(kind)")
            let result = PaymentEngineTests.finished(engine.handle(.reader(Self.cardSaid(.aac))))
            #expect(result?.error?.code == MPOSError.Code.onlineRequired, "\(kind)")
        }
    }

    @Test func partialApprovalIsNotTakenOffline() {
        var engine = Self.engine(
            PaymentParameters(amount: 12_34, currency: .eur, allowPartialApproval: true, offlineAllowed: true)
        )
        #expect(Self.hostResponseCode(Self.unreachable(&engine)) == "")
    }

    @Test func aPolicyRefusalIsOnlineRequired() {
        var engine = Self.engine()
        engine.offlineRefusal = MPOSError.onlineRequired.withMessage("limit")
        #expect(Self.hostResponseCode(Self.unreachable(&engine)) == "")
        let result = PaymentEngineTests.finished(engine.handle(.reader(Self.cardSaid(.aac))))
        #expect(result?.error?.code == MPOSError.Code.onlineRequired)
    }

    @Test func aGatewayThatAnswersIsNeverBypassed() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization()))
        let effects = engine.handle(.gatewayAnswered(.transaction(PaymentEngineTests.approved(.declined))))
        #expect(Self.hostResponseCode(effects) == "05")
    }
}
