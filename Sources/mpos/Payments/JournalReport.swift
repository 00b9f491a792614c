import MPOSKit

/// The standard-error lines by which a payment command tells what earlier runs on its
/// journal left behind: one line per attempt, saying what was found and what was done.
enum JournalReport {
    /// The line for an attempt that recovery took up.
    static func line(_ recovered: RecoveredAttempt) -> String {
        let attempt = recovered.attempt
        let transaction = attempt.transactionID.map { " (transaction \($0.rawValue))" } ?? ""
        let found: String
        switch recovered.finding {
        case .approvedButNotCompleted:
            found = "was approved at the gateway\(transaction) but never completed on the card"
        case .reversalDue:
            found = "was approved at the gateway\(transaction) and due a reversal"
        case .outcome(let status):
            found = "was \(status.rawValue) at the gateway\(transaction)"
        case .notAtGateway:
            found = "never reached the gateway (or was refused there), so nothing was charged"
        case .unknown:
            found = "could not be looked up at the gateway"
        }
        let done =
            switch recovered.resolution {
            case .reversed: "reversed it"
            case .recorded: "recorded it as finished"
            case .leftForLater: "left it for the next run"
            }
        return "journal: \(describe(attempt)) \(found); \(done)"
    }

    /// The line for an attempt an earlier run finished but may have ended before showing;
    /// nil for one still open (recovery reports those).
    static func line(unshown attempt: JournaledAttempt) -> String? {
        guard attempt.isFinished, let outcome = attempt.outcome else { return nil }
        let transaction = attempt.transactionID.map { " (transaction \($0.rawValue))" } ?? ""
        return "journal: \(describe(attempt)) ended \(outcome.rawValue)\(transaction) "
            + "in a run that stopped before it could confirm showing the result"
    }

    /// "an earlier sale of 12.00 EUR (key …)"
    private static func describe(_ attempt: JournaledAttempt) -> String {
        var text = "an earlier \(attempt.operation)"
        if let amount = attempt.amount, let currency = attempt.currency {
            text += " of \(Receipt.format(amount, currency))"
        }
        return text + " (key \(attempt.idempotencyKey.rawValue))"
    }
}
