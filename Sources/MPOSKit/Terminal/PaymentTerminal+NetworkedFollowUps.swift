import Foundation
import MPOSCore
import TerminalAPI

// Networked terminals: settling what the journal holds unfinished with the terminal.
extension PaymentTerminal {
    /// Settles the journal's unfinished payments with the connected networked terminal, one
    /// TransactionStatus request each; reversals whose answer was lost are reported, not asked.
    func settleNetworkedAttempts() async throws(MPOSError) -> [RecoveredAttempt] {
        guard let device = state.networked else { return [] }
        let link = device.link
        var report: [RecoveredAttempt] = []
        for var attempt in try payments.journal.unfinishedNetworkedAttempts(poiID: link.terminal.poiID) {
            guard attempt.operation != .reversal else {
                report.append(
                    RecoveredAttempt(
                        attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            let finding: RecoveredAttempt.Finding
            switch await device.settle(attempt, deadline: .zero, on: self) {
            case .settled(let response):
                let result = NexoOutcome.result(
                    of: response, kind: attempt.operation == .sale ? .sale : .refund,
                    requestedAmount: attempt.amount ?? 0,
                    currency: attempt.currency, idempotencyKey: attempt.key)
                attempt.finish(with: result)
                finding = .outcome(result.status)
            case .notFound:
                attempt.state = .finished
                attempt.outcome = .failed
                finding = .notAtGateway
            case .giveUp, .ask:
                report.append(
                    RecoveredAttempt(
                        attempt: JournaledAttempt(attempt), finding: .unknown, resolution: .leftForLater))
                continue
            }
            try await payments.journal.write(attempt)
            report.append(
                RecoveredAttempt(attempt: JournaledAttempt(attempt), finding: finding, resolution: .recorded))
        }
        return report
    }
}
