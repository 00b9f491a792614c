/// The journal's one rule for a request whose answer may be lost, as a pure state machine:
/// never guess. A request that got no usable answer is looked up by its idempotency key; it is
/// sent again (under the same key) only when the lookup says the other side never saw it; a
/// lookup that gets no answer is asked again after a growing pause until the policy's count or
/// deadline runs out, and then the outcome stays unknown for recovery.
///
/// Card sales (``PaymentEngine``), follow-ups and reversals (`PaymentTerminal.idempotent`),
/// recovery, and networked terminals (``StatusPolling``, whose lookup is TransactionStatus and
/// which never resend) all follow it. No I/O, no clock.
struct LookupThenResend<Answer: Sendable & Equatable>: Sendable, Equatable {
    /// What the driver learned.
    enum Event: Sendable, Equatable {
        /// The request (or its resend) was answered for good.
        case answered(Answer)
        /// The request got no answer, or one that says to ask again (a server error, "still in
        /// progress"): it may or may not have been processed.
        case unanswered
        /// The lookup found the request's stored answer.
        case found(Answer)
        /// The lookup says the other side never saw the request: nothing happened.
        case notFound
        /// The lookup got no answer, or the other side is still working on the request.
        case pending(String?)
        /// Asking again cannot help (the credentials or the key are refused).
        case hopeless(String?)
    }

    /// What the driver does next.
    enum Step: Sendable, Equatable {
        /// Send the request (again), under the same key.
        case send
        /// Look the request up after this pause.
        case lookUp(after: Duration)
        /// The outcome is known.
        case settled(Answer)
        /// The request never arrived, and may not be sent again: nothing happened.
        case neverArrived
        /// Still unknown; `hopeless` when asking again cannot help. The journal keeps it.
        case unknown(reason: String?, hopeless: Bool)
    }

    let policy: RetryPolicy
    /// Lookups made so far, and resends.
    private(set) var lookups = 0
    private(set) var resends = 0
    /// The pauses taken so far, added up (bounded by ``RetryPolicy/lookupDeadline``).
    private(set) var waited: Duration = .zero

    init(policy: RetryPolicy) { self.policy = policy }

    /// The first step: send.
    var start: Step { .send }

    mutating func handle(_ event: Event) -> Step {
        switch event {
        case .answered(let answer), .found(let answer):
            return .settled(answer)
        case .unanswered:
            // The first lookup goes at once; after lookups already made, the pause grows on.
            guard policy.mayLookUpAgain(after: lookups) else { return .unknown(reason: nil, hopeless: false) }
            return lookups == 0 ? .lookUp(after: .zero) : pause(or: nil)
        case .notFound:
            lookups += 1
            guard policy.mayResend(after: resends) else { return .neverArrived }
            resends += 1
            return .send
        case .pending(let reason):
            lookups += 1
            guard policy.mayLookUpAgain(after: lookups) else {
                return .unknown(reason: reason, hopeless: false)
            }
            return pause(or: reason)
        case .hopeless(let reason):
            return .unknown(reason: reason, hopeless: true)
        }
    }

    /// The next lookup after its pause, unless the pauses would pass the deadline.
    private mutating func pause(or reason: String?) -> Step {
        let pause = policy.delay(afterLookups: lookups)
        if let deadline = policy.lookupDeadline, waited + pause > deadline {
            return .unknown(reason: reason, hopeless: false)
        }
        waited += pause
        return .lookUp(after: pause)
    }
}
