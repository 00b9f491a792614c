import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The engine's rules as a pure state machine: events in, effects out, no I/O.
@Suite(.timeLimit(.minutes(2)))
struct PaymentEngineTests {
    static let key = IdempotencyKey(rawValue: "key-1")!

    static func engine() -> PaymentEngine {
        PaymentEngine(
            parameters: PaymentParameters(amount: 12_34, currency: .eur), key: key, readerTransactionID: "r1",
            merchantName: "Shop", now: Date(timeIntervalSince1970: 0))
    }

    static let authorization = ReaderMessage.authorizationRequest(AuthorizationRequest(
        transactionID: "r1", emvData: [0x9F, 0x26, 0x01, 0x00], encryptedCardData: [0x01], ksn: [0x02],
        maskedPAN: "411111******1111", expiry: "4912", entryMode: .chip, cvm: .pin))

    static func approved(_ status: FinancialStatus = .approved) -> Transaction {
        Transaction(
            id: TransactionID(rawValue: "tx_1")!, kind: .sale, status: status, requestedAmount: 12_34,
            approvedAmount: status == .approved ? 12_34 : 0, totalAmount: 12_34, currency: .eur,
            authorizationCode: "A1B2C3", responseCode: status == .approved ? "00" : "05", createdAt: Date())
    }

    static func outcome(_ kind: CryptogramKind, _ status: ReaderStatusCode = .success) -> ReaderMessage {
        .transactionOutcome(TransactionOutcome(
            transactionID: "r1", cryptogramType: kind, emvData: [], status: status, cvm: .pin, entryMode: .chip,
            pinVerified: true))
    }

    static func finished(_ effects: [PaymentEngine.Effect]) -> PaymentResult? {
        for case .finish(let result) in effects { return result }
        return nil
    }

    @Test func journalsBeforeTheGatewayRequestLeaves() {
        var engine = Self.engine()
        let start = engine.handle(.start)
        guard case .journal(let created) = start.first else {
            Issue.record("no journal first")
            return
        }
        #expect(created.state == .created)
        let effects = engine.handle(.reader(Self.authorization))
        let journalIndex = effects.firstIndex { if case .journal(let e) = $0 { e.state == .authorizing } else { false } }
        let authorizeIndex = effects.firstIndex { if case .authorize = $0 { true } else { false } }
        #expect(journalIndex != nil && authorizeIndex != nil && journalIndex! < authorizeIndex!)
        for case .journal(let entry) in effects { #expect(entry.maskedPAN == "411111******1111") }
    }

    @Test func onlyTheFirstRecordAndTheOutcomeMustBeSynced() {
        var engine = Self.engine()
        var effects = engine.handle(.start)
        effects += engine.handle(.reader(Self.authorization))
        effects += engine.handle(.gatewayAnswered(.transaction(Self.approved())))
        effects += engine.handle(.reader(Self.outcome(.tc)))
        #expect(Self.finished(effects)?.status == .approved)
        var writes: [(JournalEntry.State, Bool)] = []
        for case .journal(let entry) in effects { writes.append((entry.state, entry.mustBeDurable)) }
        #expect(writes.map(\.0) == [.created, .authorizing, .approved, .finished])
        #expect(writes.map(\.1) == [true, false, false, true])
    }

    @Test func aLostAnswerIsLookedUpAndNeverResentWhenFound() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        let lost = engine.handle(.gatewayUnreachable)
        #expect(lost.contains(.lookup(Self.key, delay: .zero)))
        let found = engine.handle(.lookedUp(.found(.transaction(Self.approved()))))
        #expect(!found.contains { if case .authorize = $0 { true } else { false } })
        #expect(found.contains { if case .sendToReader(.hostResponse(let host)) = $0 { host.approved } else { false } })
        let result = Self.finished(engine.handle(.reader(Self.outcome(.tc))))
        #expect(result?.status == .approved && result?.recovered == true)
    }

    @Test func anUnseenAttemptIsSentAgainWithTheSameKey() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        _ = engine.handle(.gatewayUnreachable)
        let effects = engine.handle(.lookedUp(.notFound))
        #expect(effects.contains { if case .authorize(_, let key) = $0 { key == Self.key } else { false } })
    }

    @Test func anApprovalTheCardDeclinesIsReversedAndNeverReportedAsFailure() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.approved())))
        let effects = engine.handle(.reader(Self.outcome(.aac, .cardCancelled)))
        #expect(effects.contains { if case .reverse(let id, _, .cardDeclined) = $0 { id.rawValue == "tx_1" } else { false } })
        let result = Self.finished(engine.handle(.reversalFinished(true)))
        #expect(result?.status == .declined && result?.reversed == true)
    }

    @Test func aReaderLostAfterApprovalReverses() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.approved())))
        let effects = engine.handle(.readerLost)
        #expect(effects.contains { if case .reverse = $0 { true } else { false } })
    }

    @Test func anAnswerArrivingAfterTheReaderWentAwayIsReversed() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        #expect(engine.handle(.readerLost).isEmpty)
        let effects = engine.handle(.gatewayAnswered(.transaction(Self.approved())))
        #expect(effects.contains { if case .reverse = $0 { true } else { false } })
    }

    @Test func aHostDeclineIsDeclined() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        _ = engine.handle(.gatewayAnswered(.transaction(Self.approved(.declined))))
        let result = Self.finished(engine.handle(.reader(Self.outcome(.aac, .cardCancelled))))
        #expect(result?.status == .declined && result?.reversed == false && result?.responseCode == "05")
    }

    @Test func aServerErrorIsLookedUpNotTakenAsADecline() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        let effects = engine.handle(.gatewayAnswered(.refused(status: 500, GatewayErrorBody(code: 5000, message: "boom"))))
        #expect(effects.contains { if case .lookup(Self.key, _) = $0 { true } else { false } })
        #expect(!effects.contains { if case .sendToReader = $0 { true } else { false } })
    }

    @Test func anUnknowableOutcomeStaysInTheJournal() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(Self.authorization))
        _ = engine.handle(.gatewayUnreachable)
        var last: [PaymentEngine.Effect] = []
        for _ in 0..<RetryPolicy.standard.maximumLookups { last = engine.handle(.lookedUp(.unreachable)) }
        #expect(last.contains { if case .sendToReader(.hostResponse(let host)) = $0 { !host.approved } else { false } })
        let effects = engine.handle(.reader(Self.outcome(.aac, .cardCancelled)))
        #expect(Self.finished(effects)?.status == .failed)
        // Unfinished, but an outcome: synced before the result returns.
        for case .journal(let entry) in effects { #expect(entry.state == .authorizing && entry.mustBeDurable) }
        #expect(engine.entry.state == .authorizing)
    }

    @Test func cancelIsAllowedOnlyWhileTheReaderSaysSo() {
        var engine = Self.engine()
        _ = engine.handle(.start)
        #expect(!engine.isCancelAllowed)
        _ = engine.handle(.reader(.statusReport(StatusReport(status: .waitingCard, message: "Insert", cancelAllowed: true))))
        #expect(engine.isCancelAllowed)
        _ = engine.handle(.reader(.statusReport(StatusReport(status: .pinInputCompleted, message: "PIN", cancelAllowed: false))))
        #expect(!engine.isCancelAllowed)
        _ = engine.handle(.reader(.statusReport(StatusReport(status: .pinInput, message: "PIN", cancelAllowed: true))))
        _ = engine.handle(.reader(Self.authorization))
        #expect(!engine.isCancelAllowed)
    }
}
