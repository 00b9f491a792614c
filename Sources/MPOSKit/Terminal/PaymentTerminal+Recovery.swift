import Foundation
import GatewayAPI
import MPOSCore

// Recovery: finishing what the journal holds unfinished (its logic is the pure
// `JournalRecovery`; the terminal runs the effects it returns), and the idempotent gateway
// requests that recovery, reversals and follow-ups share, retried as `RetryPolicy` says.
extension PaymentTerminal {
    /// ``Recovery/recoverUnfinishedAttempts()``'s work, holding the terminal as a recovery.
    func recoverUnfinishedAttempts() async throws(MPOSError) -> [RecoveredAttempt] {
        guard let hold = try? gate.begin(.recovery) else { return [] }  // busy: the running operation owns its entry
        defer { gate.end(hold) }
        let gateway = try await finishUnfinished(cardAttemptsOnly: false)
        return gateway + (try await settleNetworkedAttempts())
    }

    /// Finishes the journal's unfinished attempts (card attempts only, or every one) and
    /// notes whether card attempts are left. A reversal is retried as `retry` says: with
    /// ``RetryPolicy/oneLookup`` one the gateway cannot confirm at once is left for later.
    func finishUnfinished(cardAttemptsOnly: Bool, retry: RetryPolicy = .standard) async throws(MPOSError)
        -> [RecoveredAttempt]
    {
        if let journalRefusal = payments.journalRefusal { throw journalRefusal }
        // Outcomes known in memory go to the journal first; one the journal still refuses
        // stops the pass, since recovery would otherwise guess at that attempt.
        while let outcome = payments.unwrittenOutcomes.first {
            try await payments.journal.write(outcome)
            payments.unwrittenOutcomes.removeFirst()
        }
        var recovery = JournalRecovery(
            entries: try await payments.journal.handingOver(
                payments.journal.unfinished(), storedOffline: { [offline] () async throws(MPOSError) in try await offline.storedKeys() }),
            cardAttemptsOnly: cardAttemptsOnly)
        // Before a login bound the journal, no gateway is known to own its attempts: they stay.
        guard payments.journalBound else { return [] }
        var next: JournalRecovery.Event? = .start
        while let event = next {
            next = nil
            for effect in recovery.handle(event) {
                switch effect {
                case .journal(var entry):
                    entry.updatedAt = Date()
                    try await payments.journal.write(entry)
                case .lookup(let key):
                    next = .lookedUp(await client.lookup(key))
                case .reverse(let id, let key, let reason):
                    next = .reversalFinished(await reverse(id, key: key, reason: reason, retry: retry))
                case .finish(let summary):
                    payments.cardAttemptsMayBeUnfinished = summary.cardAttemptsLeft
                    if !cardAttemptsOnly { payments.followUpsMayBeUnfinished = summary.followUpsLeft }
                    return recovery.report
                }
            }
        }
        // The machine always ends with `finish`; should it not, the journal still says what
        // is left and the next pass finishes it.
        return []
    }

    /// Reverses idempotently; true once the gateway confirmed (or the transaction can no
    /// longer be reversed), false when it could not be asked.
    func reverse(
        _ id: TransactionID, key: IdempotencyKey, reason: ReversalReason, retry: RetryPolicy = .standard
    )
        async -> Bool
    {
        await idempotent(
            GatewayRoutes.reverse, id: id.rawValue, body: ReverseRequest(reason: reason), key: key,
            retry: retry) != nil
    }

    /// Sends with `key` until the answer is known, by the lookup-then-resend rule
    /// (``LookupThenResend``): a lost answer is looked up by key, and the request is sent
    /// again only when the gateway never saw it, as `retry` says. Nil when unknowable now.
    func idempotent<Body: Encodable & Sendable>(
        _ endpoint: GatewayEndpoint<Body, Transaction>, id: String? = nil, body: Body, key: IdempotencyKey,
        retry: RetryPolicy = .standard
    ) async -> GatewayAnswer? {
        var rule = GatewayDelivery(policy: retry)
        var step = rule.start
        while true {
            switch step {
            case .send:
                do {
                    step = rule.handle(
                        GatewayDelivery.event(
                            answer: try await client.send(endpoint, id: id, body: body, key: key)))
                } catch {
                    step = rule.handle(.unanswered)
                }
            case .lookUp(let pause):
                // A cancelled pause looks up at once, which is what a cancel wants.
                if pause > .zero { try? await clock.sleep(for: pause) }
                step = rule.handle(GatewayDelivery.event(await client.lookup(key)))
            case .settled(let answer): return answer
            case .neverArrived, .unknown: return nil
            }
        }
    }
}
