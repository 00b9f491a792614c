import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// Recovery's rules as a pure state machine: journal entries and gateway answers in,
/// effects out, no I/O.
@Suite(.timeLimit(.minutes(2)))
struct JournalRecoveryTests {
    static func entry(
        _ key: String, _ operation: JournalEntry.Operation = .card(.sale), state: JournalEntry.State,
        gatewayTransactionID: String? = nil
    ) -> JournalEntry {
        JournalEntry(
            key: IdempotencyKey(rawValue: key)!, operation: operation, readerTransactionID: nil,
            originalTransactionID: nil, amount: 12_34, currency: .eur, state: state, maskedPAN: nil,
            gatewayTransactionID: gatewayTransactionID.flatMap(TransactionID.init(rawValue:)), outcome: nil,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    }

    static func transaction(_ status: FinancialStatus, id: String = "tx_1") -> Transaction {
        Transaction(
            id: TransactionID(rawValue: id)!, kind: .sale, status: status, requestedAmount: 12_34,
            approvedAmount: status == .approved ? 12_34 : 0, totalAmount: 12_34, currency: .eur,
            authorizationCode: nil, responseCode: nil, createdAt: Date(timeIntervalSince1970: 0))
    }

    static func journaled(_ effects: [JournalRecovery.Effect]) -> [JournalEntry] {
        effects.compactMap { if case .journal(let entry) = $0 { entry } else { nil } }
    }

    static func summary(_ effects: [JournalRecovery.Effect]) -> JournalRecovery.Summary? {
        for case .finish(let summary) in effects { return summary }
        return nil
    }

    @Test func anEmptyJournalFinishesAtOnce() {
        var recovery = JournalRecovery(entries: [], cardAttemptsOnly: false)
        #expect(recovery.handle(.start) == [.finish(JournalRecovery.Summary())])
        #expect(recovery.isFinished)
        #expect(recovery.handle(.start).isEmpty)
    }

    @Test func anAttemptInFlightIsLookedUpByItsOwnKey() {
        var recovery = JournalRecovery(entries: [Self.entry("sale-1", state: .created)], cardAttemptsOnly: false)
        #expect(recovery.handle(.start) == [.lookup(IdempotencyKey(rawValue: "sale-1")!)])
    }

    @Test func aCardApprovalFoundAtTheGatewayIsReversedThenFinished() {
        let attempt = Self.entry("sale-1", state: .authorizing)
        var recovery = JournalRecovery(entries: [attempt], cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        let effects = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.approved)))))
        // The reversal is journaled before it is asked for, under the attempt's derived key.
        #expect(effects.count == 2)
        #expect(Self.journaled(effects).map(\.state) == [.reversing])
        #expect(effects.last == .reverse(TransactionID(rawValue: "tx_1")!, attempt.reversalKey, .timeout))

        let done = recovery.handle(.reversalFinished(true))
        let finished = Self.journaled(done)
        #expect(finished.count == 1)
        #expect(finished.first?.state == .finished && finished.first?.outcome == .declined)
        #expect(finished.first?.gatewayTransactionID == TransactionID(rawValue: "tx_1"))
        #expect(Self.summary(done) == JournalRecovery.Summary(finished: 1))
    }

    @Test func anUnconfirmedReversalLeavesTheCardAttemptForLater() {
        var recovery = JournalRecovery(entries: [Self.entry("sale-1", state: .authorizing)], cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        _ = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.approved)))))
        let effects = recovery.handle(.reversalFinished(false))
        #expect(Self.journaled(effects).isEmpty)
        #expect(Self.summary(effects) == JournalRecovery.Summary(finished: 0, cardAttemptsLeft: true))
    }

    @Test func aFollowUpApprovalIsRecordedNotReversed() {
        let refund = Self.entry("refund-1", .followUp(.refund), state: .authorizing)
        var recovery = JournalRecovery(entries: [refund], cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        let effects = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.approved)))))
        #expect(!effects.contains { if case .reverse = $0 { true } else { false } })
        #expect(Self.journaled(effects).map(\.outcome) == [.approved])
        #expect(Self.journaled(effects).map(\.state) == [.finished])
        #expect(Self.summary(effects) == JournalRecovery.Summary(finished: 1))
    }

    @Test func aDeclineIsRecordedAsDeclined() {
        var recovery = JournalRecovery(entries: [Self.entry("sale-1", state: .authorizing)], cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        let effects = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.declined)))))
        #expect(Self.journaled(effects).map(\.outcome) == [.declined])
        #expect(Self.summary(effects) == JournalRecovery.Summary(finished: 1))
    }

    @Test(arguments: [AttemptLookup.notFound, .found(.refused(status: 402, GatewayErrorBody(code: 1, message: "no")))])
    func whatTheGatewayNeverChargedIsFinishedAsFailed(lookup: AttemptLookup) {
        var recovery = JournalRecovery(entries: [Self.entry("sale-1", state: .created)], cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        let effects = recovery.handle(.lookedUp(lookup))
        #expect(Self.journaled(effects).map(\.outcome) == [.failed])
        #expect(Self.journaled(effects).map(\.state) == [.finished])
    }

    @Test(arguments: [AttemptLookup.unreachable, .inProgress])
    func whatTheGatewayCannotSayIsLeftForLater(lookup: AttemptLookup) {
        let entries = [Self.entry("sale-1", state: .authorizing), Self.entry("void-1", .followUp(.void), state: .authorizing)]
        var recovery = JournalRecovery(entries: entries, cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        // Nothing is written for the first; the pass goes on to the next entry.
        #expect(recovery.handle(.lookedUp(lookup)) == [.lookup(IdempotencyKey(rawValue: "void-1")!)])
        let effects = recovery.handle(.lookedUp(lookup))
        #expect(Self.journaled(effects).isEmpty)
        #expect(Self.summary(effects) == JournalRecovery.Summary(finished: 0, cardAttemptsLeft: true, followUpsLeft: true))
    }

    @Test func anApprovalDueAReversalIsReversedWithoutALookup() {
        let approved = Self.entry("sale-1", state: .approved, gatewayTransactionID: "tx_9")
        var recovery = JournalRecovery(entries: [approved], cardAttemptsOnly: false)
        let effects = recovery.handle(.start)
        #expect(Self.journaled(effects).map(\.state) == [.reversing])
        #expect(effects.last == .reverse(TransactionID(rawValue: "tx_9")!, approved.reversalKey, .terminalError))
    }

    @Test func anApprovalWithoutItsTransactionIsLeftForLater() {
        var recovery = JournalRecovery(entries: [Self.entry("sale-1", state: .reversing)], cardAttemptsOnly: false)
        let effects = recovery.handle(.start)
        #expect(effects == [.finish(JournalRecovery.Summary(finished: 0, cardAttemptsLeft: true))])
    }

    @Test func aCardOnlyPassLeavesFollowUpsAlone() {
        let entries = [Self.entry("refund-1", .followUp(.refund), state: .authorizing), Self.entry("sale-1", state: .authorizing)]
        var recovery = JournalRecovery(entries: entries, cardAttemptsOnly: true)
        #expect(recovery.handle(.start) == [.lookup(IdempotencyKey(rawValue: "sale-1")!)])
        let effects = recovery.handle(.lookedUp(.notFound))
        #expect(Self.summary(effects) == JournalRecovery.Summary(finished: 1))
    }

    @Test func entriesAreTakenOneAtATimeOldestFirst() {
        let entries = [Self.entry("sale-1", state: .authorizing), Self.entry("sale-2", state: .created)]
        var recovery = JournalRecovery(entries: entries, cardAttemptsOnly: false)
        #expect(recovery.handle(.start) == [.lookup(IdempotencyKey(rawValue: "sale-1")!)])
        // An answer nobody asked for (a reversal) changes nothing.
        #expect(recovery.handle(.reversalFinished(true)).isEmpty)
        let effects = recovery.handle(.lookedUp(.notFound))
        #expect(Self.journaled(effects).map(\.key.rawValue) == ["sale-1"])
        #expect(effects.last == .lookup(IdempotencyKey(rawValue: "sale-2")!))
        let last = recovery.handle(.lookedUp(.notFound))
        #expect(Self.summary(last) == JournalRecovery.Summary(finished: 2))
        #expect(recovery.isFinished)
    }

    @Test func eachEntryIsReportedWithWhatWasFoundAndWhatWasDone() {
        let entries = [
            Self.entry("sale-1", state: .authorizing), Self.entry("sale-2", state: .created),
            Self.entry("refund-1", .followUp(.refund), state: .authorizing), Self.entry("sale-3", state: .authorizing),
            Self.entry("sale-4", state: .reversing),
        ]
        var recovery = JournalRecovery(entries: entries, cardAttemptsOnly: false)
        _ = recovery.handle(.start)
        _ = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.approved, id: "tx_1")))))
        _ = recovery.handle(.reversalFinished(true))
        _ = recovery.handle(.lookedUp(.notFound))
        _ = recovery.handle(.lookedUp(.found(.transaction(Self.transaction(.approved, id: "tx_2")))))
        let last = recovery.handle(.lookedUp(.unreachable))
        #expect(Self.summary(last) == JournalRecovery.Summary(finished: 3, cardAttemptsLeft: true))
        let report = recovery.report
        #expect(report.map(\.attempt.idempotencyKey.rawValue) == ["sale-1", "sale-2", "refund-1", "sale-3", "sale-4"])
        #expect(report.map(\.finding) == [.approvedButNotCompleted, .notAtGateway, .outcome(.approved), .unknown, .reversalDue])
        #expect(report.map(\.resolution) == [.reversed, .recorded, .recorded, .leftForLater, .leftForLater])
        #expect(report[0].attempt.transactionID == TransactionID(rawValue: "tx_1") && report[0].attempt.outcome == .declined)
        #expect(report[0].attempt.isFinished && !report[3].attempt.isFinished)
        #expect(report[0].attempt.operation == "sale" && report[0].attempt.amount == 12_34 && report[0].attempt.currency == .eur)
    }
}
