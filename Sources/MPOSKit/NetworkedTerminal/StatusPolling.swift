import TerminalAPI

/// Settling a payment whose answer was lost, as a pure state machine: the driver asks the
/// terminal with TransactionStatus when told to, feeds back what it said, and stops at a
/// settled outcome, at NotFound (the payment never happened), or when asking again would pass
/// the deadline. No I/O, no clock.
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

    /// The pauses between asks; the last repeats.
    static let pauses: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8)]

    /// How long the pauses may add up to.
    let deadline: Duration
    /// The pauses taken so far, added up.
    private(set) var waited: Duration = .zero
    private var asked = 0

    init(deadline: Duration) { self.deadline = deadline }

    /// The first step: ask at once.
    func start() -> Step { .ask(after: .zero) }

    /// The step after an answer.
    mutating func handle(_ answer: Answer) -> Step {
        switch answer {
        case .outcome(let response): return .settled(response)
        case .notFound: return .notFound
        case .unauthenticated(let reason): return .giveUp(reason)
        case .inProgress: return again(or: "the terminal still reports the payment in progress")
        case .unknown(let reason): return again(or: reason)
        }
    }

    private mutating func again(or reason: String) -> Step {
        let pause = Self.pauses[min(asked, Self.pauses.count - 1)]
        asked += 1
        guard waited + pause <= deadline else { return .giveUp(reason) }
        waited += pause
        return .ask(after: pause)
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
