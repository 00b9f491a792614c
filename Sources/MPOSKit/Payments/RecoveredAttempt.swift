import Foundation
import MPOSCore

/// One attempt as the payment journal holds it: what was tried and, once known, how it ended.
/// Never card data beyond what the journal keeps (no card number at all here).
public struct JournaledAttempt: Sendable, Hashable {
    /// The idempotency key its gateway request was sent under.
    public let idempotencyKey: IdempotencyKey
    /// What was attempted, as the journal names it: `sale`, `authorization`,
    /// `preAuthorization`, `refundUnreferenced`, `sepa`, `refund`, `void`, `capture`,
    /// `tipAdjustment`, `cash` or `cashRefund`.
    public let operation: String
    /// Whether the card reader took part (a card operation): an approval its card never
    /// completed is reversed.
    public let isCardOperation: Bool
    /// The amount in minor units, when the attempt had one.
    public let amount: Int64?
    /// The amount's currency, when the attempt had one.
    public let currency: Currency?
    /// The gateway's transaction, once known.
    public let transactionID: TransactionID?
    /// The transaction a follow-up (refund, void, capture, tip) acted on.
    public let originalTransactionID: TransactionID?
    /// How it ended, once known. An approval reversed by recovery reads `declined`.
    public let outcome: PaymentStatus?
    /// Whether nothing is left to do for it.
    public let isFinished: Bool
    /// When the attempt was journaled, before its request could leave.
    public let startedAt: Date

    init(_ entry: JournalEntry) {
        idempotencyKey = entry.key
        operation = entry.operation.rawValue
        isCardOperation = entry.operation.isCardOperation
        amount = entry.amount
        currency = entry.currency
        transactionID = entry.gatewayTransactionID
        originalTransactionID = entry.originalTransactionID
        outcome = entry.outcome
        isFinished = entry.state == .finished
        startedAt = entry.createdAt
    }
}

/// What recovery found of one attempt an earlier run left unfinished, and what it did:
/// returned by ``PaymentTerminal/login()`` and ``Recovery/recoverUnfinishedAttempts()``
/// so that an app can tell the merchant.
///
/// ```swift
/// for recovered in try await terminal.login() where recovered.resolution == .reversed {
///     print("reversed \(recovered.attempt.operation) \(recovered.attempt.transactionID!)")
/// }
/// ```
public struct RecoveredAttempt: Sendable, Hashable {
    /// What the gateway (or the journal) said of the attempt.
    public enum Finding: Sendable, Hashable {
        /// The gateway approved a card attempt that the card never completed.
        case approvedButNotCompleted
        /// The journal held an approval due a reversal (the card declined it, or the run
        /// ended before the reversal was confirmed).
        case reversalDue
        /// The gateway holds the attempt with this outcome, and nothing was left to do.
        case outcome(PaymentStatus)
        /// The gateway never received the attempt, or refused it: nothing was charged.
        case notAtGateway
        /// The gateway could not say now (unreachable, or the attempt still in progress).
        case unknown
    }

    /// What recovery did about it.
    public enum Resolution: Sendable, Hashable {
        /// The approval was reversed, and the gateway confirmed it.
        case reversed
        /// The gateway's outcome was recorded in the journal; nothing else was needed.
        case recorded
        /// It could not be finished now; the next recovery tries again.
        case leftForLater
    }

    /// The attempt as the journal holds it after this pass.
    public let attempt: JournaledAttempt
    /// What was found.
    public let finding: Finding
    /// What was done.
    public let resolution: Resolution

    /// Creates a report (recovery makes these; public for tests of apps that show them).
    public init(attempt: JournaledAttempt, finding: Finding, resolution: Resolution) {
        self.attempt = attempt
        self.finding = finding
        self.resolution = resolution
    }
}

extension JournaledAttempt {
    /// A networked terminal's attempt as the journal holds it (``isCardOperation`` is true for
    /// its payments: a card was read, by the terminal).
    init(_ attempt: NetworkedAttempt) {
        idempotencyKey = attempt.key
        operation = attempt.operation.rawValue
        isCardOperation = attempt.operation != .reversal
        amount = attempt.amount
        currency = attempt.currency
        transactionID = attempt.transactionID
        originalTransactionID = attempt.originalTransactionID
        outcome = attempt.outcome
        isFinished = attempt.state == .finished
        startedAt = attempt.createdAt
    }
}
