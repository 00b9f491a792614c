import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit

/// The TSM seed's merchant reminder: its text and two choices, offered at each check while
/// updates are pending, end to end against the sandbox.
@Suite(.serialized, .timeLimit(.minutes(2))) struct UpdateReminderTests {
    @Test func theReminderCarriesTheSeedsMessageAndItsTwoChoices() {
        let reminder = UpdateReminder(deadline: nil)
        #expect(
            reminder.message
                == "Terminal updates not installed by their deadline will result in a deactivation of your "
                + "terminal. Would you like to begin the updates?")
        #expect(reminder.choices == [.beginUpdatesNow, .remindMeLater])
        #expect(reminder.choices.map(\.title) == ["Begin updates now", "Remind me later"])
        #expect(UpdateReminder.Choice.beginUpdatesNow.advice.contains("up to 30 minutes"))
        #expect(UpdateReminder.Choice.beginUpdatesNow.advice.contains("do not disrupt"))
        #expect(UpdateReminder.Choice.remindMeLater.advice.contains("each time the terminal checks"))
    }

    @Test func pendingUpdatesBringTheReminderAtEveryCheckUntilTheMerchantBegins() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        #expect(try await terminal.updates.check().reminder == nil)
        #expect(await terminal.updates.reminder == nil)

        let deadline = clock.now().addingTimeInterval(10 * 86_400)
        let image = try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12",
            bytes: TerminalUpdateTests.image(6_000, seed: 50),
            deadline: deadline)
        let first = try await terminal.updates.check().reminder
        #expect(first == UpdateReminder(deadline: deadline))
        #expect(await terminal.updates.reminder == first)

        // Later: nothing starts, and the next check reminds again.
        #expect(terminal.updates.respond(to: .remindMeLater) == nil)
        #expect(try await terminal.updates.check().reminder == first)
        #expect(await sandbox.reader.activeVersions().configuration == "EMV-2026.11")

        let operation = try #require(terminal.updates.respond(to: .beginUpdatesNow))
        let result = await operation.result()
        #expect(result.type == .success, "\(result.message ?? "")")
        #expect(result.applied == [image])
        #expect(await terminal.updates.reminder == nil)
        #expect(try await terminal.updates.check().reminder == nil)
        try await sandbox.close(terminal)
    }
}
