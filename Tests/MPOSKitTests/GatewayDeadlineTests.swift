import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

@testable import MPOSKit

/// The gateway's refusal of a reader past its update deadline reaches the app as the same
/// ``MPOSError/updateRequired`` the terminal's own check throws, end to end over the sandbox
/// gateway and the simulated reader on TCP, with the gateway's manual clock.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GatewayDeadlineTests {
    static let day: TimeInterval = 24 * 60 * 60

    @Test func theGatewaysRefusalOfAReaderPastItsDeadlineIsUpdateRequired() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await TerminalUpdateTests.terminal(sandbox)  // registered at connect
        let registered = clock.now()
        clock.advance(by: 3 * Self.day + 1)
        _ = try await terminal.login()  // asks again: nothing is pending yet
        #expect(await terminal.updates.isInitialized)

        // Published since the terminal asked, with a deadline already passed: the terminal does
        // not know of it, the gateway does.
        try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12",
            bytes: TerminalUpdateTests.image(5_000, seed: 11),
            deadline: registered)
        let refused = try await terminal.sale(PaymentParameters(amount: 10_31, currency: .eur))
        #expect(refused.status == .failed)
        #expect(refused.error == .updateRequired)
        #expect(refused.error?.message.contains("deactivated") == true)

        // The terminal now knows: the next payment is refused before the card is read.
        await #expect(throws: MPOSError.updateRequired) {
            try await terminal.sale(PaymentParameters(amount: 10_32, currency: .eur))
        }
        #expect(await terminal.updates.downloadAndApply().result().type == .success)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_33, currency: .eur)).status == .approved)
        try await sandbox.close(terminal)
    }
}
