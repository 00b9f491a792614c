import Foundation
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
public struct Recovery: Sendable {
    /// The terminal whose journal this is (held weakly: the terminal holds this view).
    let facade: TerminalSlot
    let journal: PaymentJournal

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
        guard let terminal = facade.get() else { return [] }
        return try await terminal.recoverUnfinishedAttempts()
    }

    /// The attempts journaled at or after `date`, oldest first, finished or not: for an app
    /// that ended before showing a result (a crash, a killed process) to tell the merchant
    /// afterwards how its payments ended.
    ///
    /// - Throws: ``MPOSError/journalFailed`` when the journal cannot be read.
    public func journaledAttempts(since date: Date) async throws(MPOSError) -> [JournaledAttempt] {
        try journal.entries(since: date).map(JournaledAttempt.init)
    }
}
