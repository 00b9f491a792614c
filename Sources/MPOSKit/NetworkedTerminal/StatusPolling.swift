import TerminalAPI

/// Settling a payment whose answer was lost, as a pure state machine: the driver asks the
/// terminal with TransactionStatus when told to, feeds back what it said, and stops at a
/// settled outcome, at NotFound (the payment never happened), or when asking again would pass
/// the deadline. It is ``LookupThenResend`` in the Terminal API's words: the same rule as a
/// gateway payment's, with TransactionStatus as the lookup and no resend. No I/O, no clock.
struct StatusPolling: Sendable {
    /// What one TransactionStatus request learned.
    enum Answer: Sendable, Equatable {
        /// `RepeatedMessageResponse`: the payment's own response.
        case outcome(PaymentResponse)
        /// `InProgress`: the terminal still runs it.
        case inProgress
        /// `NotFound`: the terminal never performed it.
        case notFound
        /// No usable answer (the terminal unreachable, another failure, garbage).
        case unknown(String)
        /// An answer that did not authenticate under the key: asking again cannot help.
        case unauthenticated(String)
    }

    /// What the driver does next.
    enum Step: Sendable, Equatable {
        /// Ask (again) after this pause.
        case ask(after: Duration)
        /// The payment's response.
        case settled(PaymentResponse)
        /// The payment never happened: nothing was charged.
        case notFound
        /// Still unknown: leave the attempt unfinished, for this reason.
        case giveUp(String)
    }

    /// The lookup-then-resend rule, with TransactionStatus as the lookup and no resend.
    private var rule: LookupThenResend<PaymentResponse>

    /// Asks until `deadline`'s worth of pauses (0.5 s growing to 8 s) has passed.
    init(deadline: Duration) { rule = LookupThenResend(policy: .settlement(within: deadline)) }

    /// The first step: ask at once.
    func start() -> Step { .ask(after: .zero) }

    /// The step after an answer.
    mutating func handle(_ answer: Answer) -> Step {
        switch rule.handle(Self.event(answer)) {
        case .settled(let response): .settled(response)
        case .lookUp(let pause): .ask(after: pause)
        case .neverArrived, .send: .notFound
        case .unknown(let reason, _): .giveUp(reason ?? "no answer")
        }
    }

    /// What a TransactionStatus answer tells the rule.
    private static func event(_ answer: Answer) -> LookupThenResend<PaymentResponse>.Event {
        switch answer {
        case .outcome(let response): .found(response)
        case .notFound: .notFound
        case .unauthenticated(let reason): .hopeless(reason)
        case .inProgress: .pending("the terminal still reports the payment in progress")
        case .unknown(let reason): .pending(reason)
        }
    }

    /// What a TransactionStatus exchange's answer says about the payment.
    static func answer(_ answer: NexoLink.Answer) -> Answer {
        switch answer {
        case .lost(let reason): return .unknown(reason)
        case .unauthenticated(let reason): return .unauthenticated(reason)
        case .response(let message):
            guard let status = message.transactionStatusResponse else {
                return .unknown("the terminal answered TransactionStatus with another message")
            }
            if status.response.result != .failure,
                let payment = status.repeatedMessageResponse?.repeatedResponseMessageBody.paymentResponse
            {
                return .outcome(payment)
            }
            switch status.response.errorCondition {
            case .inProgress?: return .inProgress
            case .notFound?: return .notFound
            default:
                return .unknown(NexoOutcome.error(for: status.response).message)
            }
        }
    }
}
