import Foundation
import GatewayAPI
import MPOSCore

/// What the journal holds, reached as ``PaymentTerminal/recovery``: finishing the attempts an
/// earlier run left unfinished (``PaymentTerminal/login(offlineFallback:)`` and every card
/// operation also do), and the journaled attempts for an app that ended before showing a result.
///
/// ```swift
/// for attempt in try await terminal.recovery.recoverUnfinishedAttempts() {
///     print(attempt.finding, attempt.resolution)
/// }
/// ```
///
/// It owns whose the journal is (bound at login, or refused), what it may hold unfinished, the
/// outcomes the journal refused to write, and the recovery pass (its rules are the pure
/// `JournalRecovery`; this runs the effects it returns).
public actor Recovery {
    /// Whose the journal is, as far as this terminal knows.
    enum Ownership: Sendable {
        /// No login bound it yet: recovery asks no gateway about its attempts.
        case unknown
        /// Bound to this terminal's gateway and merchant.
        case bound
        /// It belongs to another gateway or merchant: nothing in it is looked up, reversed or resumed.
        case refused(MPOSError)
    }

    let journal: PaymentJournal
    let client: GatewayClient
    let gate: OperationGate
    let offline: OfflinePayments
    private(set) var ownership = Ownership.unknown
    /// Whether the journal may hold card attempts, or follow-ups, left unfinished (their
    /// outcome unknown, or a reversal not confirmed): set when an operation ends so, cleared
    /// by a pass that finishes them all. Until the first pass (at login) the journal is not
    /// known. While both are false no operation reads the journal before it starts.
    private(set) var cardAttemptsMayBeUnfinished = true
    private(set) var followUpsMayBeUnfinished = true
    /// Outcomes the journal refused, kept to be written before recovery reads the journal:
    /// without them recovery would take a completed approval for one whose card never
    /// completed, and reverse it.
    private var unwrittenOutcomes: [JournalEntry] = []
    /// The networked terminal payments go to, if any, whose lost answers a pass settles too.
    private var networked: NetworkedTerminalDevice?

    init(journal: PaymentJournal, client: GatewayClient, gate: OperationGate, offline: OfflinePayments) {
        self.journal = journal
        self.client = client
        self.gate = gate
        self.offline = offline
    }

    /// Finishes every journaled attempt an earlier run left unfinished: looks each up by its
    /// key, reverses approvals whose card never completed, and marks the rest finished.
    /// Attempts the gateway cannot be asked about stay for the next call.
    ///
    /// - Returns: how many attempts were finished.
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be read or written, or
    ///   holds an entry whose values do not parse (it is never guessed at).
    @discardableResult
    public func recoverUnfinished() async throws(MPOSError) -> Int {
        try await recoverUnfinishedAttempts().count { $0.resolution != .leftForLater }
    }

    /// Finishes every journaled attempt an earlier run left unfinished, as
    /// ``recoverUnfinished()`` does, and says for each what was found and what was done, so
    /// that the merchant can be told (an approval reversed, a payment the gateway never got).
    /// With a networked terminal connected, its payments whose answer was lost are settled too.
    ///
    /// - Returns: one report per unfinished attempt, oldest first; empty when an operation is
    ///   running (it owns its entry; the next call finishes the rest). Before
    ///   ``PaymentTerminal/login(offlineFallback:)`` nothing is looked up: the journal's owner is
    ///   not known yet.
    /// - Throws: ``MPOSError/journalFailed``; ``MPOSError/journalOwnedElsewhere`` when the last
    ///   login found the journal owned by another gateway or merchant.
    public func recoverUnfinishedAttempts() async throws(MPOSError) -> [RecoveredAttempt] {
        guard let hold = try? gate.begin(.recovery) else { return [] }  // busy: the running operation owns its entry
        defer { gate.end(hold) }
        let gateway = try await finishUnfinished(cardAttemptsOnly: false)
        guard let networked else { return gateway }
        return gateway + (try await networked.settleUnfinished(in: journal))
    }

    /// The attempts journaled at or after `date`, oldest first, finished or not: for an app
    /// that ended before showing a result (a crash, a killed process) to tell the merchant
    /// afterwards how its payments ended.
    ///
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be read.
    public func journaledAttempts(since date: Date) async throws(MPOSError) -> [JournaledAttempt] {
        try journal.entries(since: date).map(JournaledAttempt.init)
    }

    // MARK: - What the facade and the payment devices tell it

    /// Binds the journal to `owner` (a journal without an owner adopts it).
    ///
    /// - Throws: ``MPOSError/journalOwnedElsewhere``, which is kept as the refusal of every
    ///   call that follows until a login binds it; ``MPOSError/journalFailed``.
    func bind(to owner: JournalOwner) throws(MPOSError) {
        do {
            try journal.bind(to: owner)
            ownership = .bound
        } catch {
            if error.code == MPOSError.Code.journalOwnedElsewhere { ownership = .refused(error) }
            throw error
        }
    }

    /// Why the journal refuses this terminal's gateway and merchant, if it does.
    var refusal: MPOSError? {
        if case .refused(let refusal) = ownership { refusal } else { nil }
    }

    /// Empties and unbinds the journal when nothing in it waits (a switch of user); true when it did.
    ///
    /// - Throws: ``MPOSError/journalFailed``.
    func releaseIfSettled() throws(MPOSError) -> Bool {
        guard try journal.releaseIfSettled() else { return false }
        ownership = .unknown
        return true
    }

    /// Payments go to `device` from now on (nil: a card reader); a pass settles its lost answers.
    func paymentsGo(to device: NetworkedTerminalDevice?) { networked = device }

    /// A card operation ended with its attempt unfinished in the journal.
    func cardAttemptLeftUnfinished() { cardAttemptsMayBeUnfinished = true }

    /// The journal refused a card operation's outcome: it is written before the next pass reads.
    func outcomeUnwritten(_ entry: JournalEntry) {
        unwrittenOutcomes.append(entry)
        cardAttemptsMayBeUnfinished = true
    }

    /// A follow-up ended with its outcome unknown.
    func followUpLeftUnfinished() { followUpsMayBeUnfinished = true }

    // MARK: - The pass

    /// Finishes the journal's unfinished attempts (card attempts only, or every one) and
    /// notes whether card attempts are left. A reversal is retried as `retry` says: with
    /// ``RetryPolicy/oneLookup`` one the gateway cannot confirm at once is left for later.
    func finishUnfinished(cardAttemptsOnly: Bool, retry: RetryPolicy = .standard) async throws(MPOSError)
        -> [RecoveredAttempt]
    {
        if let refusal { throw refusal }
        // Outcomes known in memory go to the journal first; one the journal still refuses
        // stops the pass, since recovery would otherwise guess at that attempt.
        while let outcome = unwrittenOutcomes.first {
            try await journal.write(outcome)
            unwrittenOutcomes.removeFirst()
        }
        let offline = self.offline
        var recovery = JournalRecovery(
            entries: try await journal.handingOver(
                journal.unfinished(), storedOffline: { () async throws(MPOSError) in try await offline.storedKeys() }),
            cardAttemptsOnly: cardAttemptsOnly)
        // Before a login bound the journal, no gateway is known to own its attempts: they stay.
        guard case .bound = ownership else { return [] }
        var next: JournalRecovery.Event? = .start
        while let event = next {
            next = nil
            for effect in recovery.handle(event) {
                switch effect {
                case .journal(var entry):
                    entry.updatedAt = Date()
                    try await journal.write(entry)
                case .lookup(let key):
                    next = .lookedUp(await client.lookup(key))
                case .reverse(let id, let key, let reason):
                    next = .reversalFinished(await client.reverse(id, key: key, reason: reason, retry: retry))
                case .finish(let summary):
                    cardAttemptsMayBeUnfinished = summary.cardAttemptsLeft
                    if !cardAttemptsOnly { followUpsMayBeUnfinished = summary.followUpsLeft }
                    return recovery.report
                }
            }
        }
        // The machine always ends with `finish`; should it not, the journal still says what
        // is left and the next pass finishes it.
        return []
    }
}
