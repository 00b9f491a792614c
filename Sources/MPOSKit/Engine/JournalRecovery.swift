import GatewayAPI
import MPOSCore

/// Finishing what the journal holds unfinished, as a pure state machine in the manner of
/// ``PaymentEngine``: the driving actor feeds it the gateway's answers and performs the
/// effects it returns, in order. No I/O, no clock: every path is a unit test.
///
/// Entries are taken one at a time, oldest first:
/// - an attempt whose request may have left (`created`, `authorizing`) is looked up by its
///   key; a card approval found there is reversed (the card never completed it), any other
///   answer is recorded as the outcome; a gateway that cannot say leaves it for later;
/// - an approval due a reversal (`approved`, `reversing`) is reversed;
/// - an entry is marked finished only once its outcome is known and any reversal confirmed.
struct JournalRecovery: Sendable {
    enum Event: Sendable, Hashable {
        /// Begin with the oldest entry.
        case start
        /// What the gateway knows of the current entry's attempt, by its key.
        case lookedUp(AttemptLookup)
        /// The current entry's reversal was confirmed (`true`) or could not be now (`false`).
        case reversalFinished(Bool)
    }

    enum Effect: Sendable, Hashable {
        /// Write the entry (the driver stamps its update time).
        case journal(JournalEntry)
        /// Look the attempt up by its key; answer with ``Event/lookedUp(_:)``.
        case lookup(IdempotencyKey)
        /// Reverse the transaction idempotently; answer with ``Event/reversalFinished(_:)``.
        case reverse(TransactionID, IdempotencyKey, ReversalReason)
        /// Every entry was taken: what was finished and what is left.
        case finish(Summary)
    }

    /// What a pass achieved.
    struct Summary: Sendable, Hashable {
        /// How many entries it marked finished.
        var finished = 0
        /// Whether card attempts are left unfinished.
        var cardAttemptsLeft = false
        /// Whether gateway-only operations are left unfinished.
        var followUpsLeft = false
    }

    /// What the current entry waits for.
    private enum Waiting: Sendable, Hashable {
        case nothing, lookup, reversal
    }

    private let entries: [JournalEntry]
    private var next = 0
    private var current: JournalEntry?
    private var waiting = Waiting.nothing
    /// What the current entry turned out to be, for its report.
    private var finding = RecoveredAttempt.Finding.unknown
    private var summary = Summary()
    private(set) var isFinished = false
    /// Each entry taken so far, oldest first: what was found and what was done.
    private(set) var report: [RecoveredAttempt] = []

    /// A pass over `entries` (the journal's unfinished ones, oldest first); with
    /// `cardAttemptsOnly`, gateway-only operations are not touched.
    init(entries: [JournalEntry], cardAttemptsOnly: Bool) {
        self.entries = cardAttemptsOnly ? entries.filter(\.operation.isCardOperation) : entries
    }

    mutating func handle(_ event: Event) -> [Effect] {
        guard !isFinished else { return [] }
        switch event {
        case .start:
            guard next == 0, waiting == .nothing else { return [] }
            return advance()
        case .lookedUp(let lookup):
            guard waiting == .lookup, var entry = current else { return [] }
            switch lookup {
            case .found(.transaction(let transaction)):
                entry.gatewayTransactionID = transaction.id
                if entry.operation.isCardOperation && transaction.status.isApproval {
                    // Approved at the gateway, never completed by the card: undo it.
                    finding = .approvedButNotCompleted
                    return startReversal(entry, of: transaction.id, reason: .timeout)
                }
                // A refund the gateway received and decides later is finished, not lost.
                entry.outcome =
                    transaction.status.isApproval ? .approved : transaction.status == .pending ? .pending : .declined
                finding = .outcome(entry.outcome ?? .declined)
                return settle(entry, done: true)
            case .found(.refused), .notFound:
                // The gateway refused it, or never saw it: nothing was charged.
                entry.outcome = .failed
                finding = .notAtGateway
                return settle(entry, done: true)
            case .inProgress, .unreachable, .sessionRefused:
                finding = .unknown
                return settle(entry, done: false)
            }
        case .reversalFinished(let done):
            guard waiting == .reversal, var entry = current else { return [] }
            entry.outcome = .declined
            return settle(entry, done: done)
        }
    }

    /// Takes the entries from `next` on until one waits for the gateway; finishes after the last.
    private mutating func advance() -> [Effect] {
        var effects: [Effect] = []
        while next < entries.count {
            let entry = entries[next]
            next += 1
            switch entry.state {
            case .created, .authorizing:
                // A `created` entry's request may have left too: its later states are not
                // synced (see `JournalEntry.mustBeDurable`). The gateway knows.
                current = entry
                waiting = .lookup
                return effects + [.lookup(entry.key)]
            case .approved, .reversing:
                finding = .reversalDue
                if let id = entry.gatewayTransactionID {
                    return effects + startReversal(entry, of: id, reason: .terminalError)
                }
                effects += settleWithoutAdvancing(entry, done: false)
            case .finished:
                finding = .outcome(entry.outcome ?? .failed)
                effects += settleWithoutAdvancing(entry, done: true)
            }
        }
        isFinished = true
        return effects + [.finish(summary)]
    }

    private mutating func startReversal(_ entry: JournalEntry, of id: TransactionID, reason: ReversalReason)
        -> [Effect]
    {
        var entry = entry
        entry.state = .reversing
        current = entry
        waiting = .reversal
        return [.journal(entry), .reverse(id, entry.reversalKey, reason)]
    }

    /// Closes the current entry (finished when `done`, left for later otherwise) and goes on.
    private mutating func settle(_ entry: JournalEntry, done: Bool) -> [Effect] {
        settleWithoutAdvancing(entry, done: done) + advance()
    }

    private mutating func settleWithoutAdvancing(_ entry: JournalEntry, done: Bool) -> [Effect] {
        let resolution: RecoveredAttempt.Resolution =
            !done ? .leftForLater : waiting == .reversal ? .reversed : .recorded
        current = nil
        waiting = .nothing
        guard done else {
            if entry.operation.isCardOperation {
                summary.cardAttemptsLeft = true
            } else {
                summary.followUpsLeft = true
            }
            report.append(
                RecoveredAttempt(attempt: JournaledAttempt(entry), finding: finding, resolution: resolution))
            return []
        }
        var entry = entry
        entry.state = .finished
        summary.finished += 1
        report.append(
            RecoveredAttempt(attempt: JournaledAttempt(entry), finding: finding, resolution: resolution))
        return [.journal(entry)]
    }
}
