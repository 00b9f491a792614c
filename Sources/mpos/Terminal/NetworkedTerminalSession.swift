import Foundation
import MPOSCore
import MPOSKit

/// A payment command's session with a networked terminal: the journal (kept across runs, so
/// that an answer a killed run lost is settled by the next) locked, the terminal connected,
/// and what earlier runs left unfinished with it settled and reported first.
enum NetworkedTerminalSession {
    /// Runs `body` with a `PaymentTerminal` connected to `lan`, the journal locked meanwhile.
    static func with<T>(
        _ options: TerminalOptions, _ lan: NetworkedTerminal, showEvents: Bool,
        _ body: (PaymentTerminal) async throws -> T
    ) async throws -> T {
        guard options.gateway == nil, options.reader == nil else {
            throw CLIFailure("--terminal runs the payment on that terminal: leave out --gateway and --reader")
        }
        let journalPath =
            try JournalLocation.networked(options)
        let lock = try await JournalLock.acquire(journalPath: journalPath)
        defer { lock.release() }
        let terminal: PaymentTerminal
        do {
            // No gateway is asked in this mode: the environment only fills the initializer.
            terminal = try PaymentTerminal(
                environment: lan.url, credentials: .login(user: "", password: ""), journalPath: journalPath)
        } catch {
            throw CLIFailure("the payment journal \(journalPath) could not be opened: \(error.message)")
        }
        if showEvents {
            terminal.events.addHandler([.transaction, .status]) { event in
                if let line = describe(event) { CLIOutput.line("  · \(line)") }
            }
        }
        let recovered: [RecoveredAttempt]
        do { recovered = try await terminal.connect(lan) } catch {
            throw CLIFailure(
                "the networked terminal at \(lan.url.absoluteString) could not be used: \(error.message)")
        }
        for attempt in recovered { CLIOutput.error(JournalReport.line(attempt)) }
        lock.earlierRunsTold()
        return try await body(terminal)
    }

    /// The steps of a payment on a networked terminal, in its words (the terminal shows its own
    /// prompts; no gateway is asked).
    static func describe(_ event: TerminalEvent) -> String? {
        switch event {
        case .authorizing: "sent to the terminal"
        case .recovering: "the terminal's answer was lost: asking it with TransactionStatus"
        default: DemoCommand.describe(event)
        }
    }
}
