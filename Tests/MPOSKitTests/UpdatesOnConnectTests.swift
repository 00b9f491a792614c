import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The ECP seed's connect: "a reader may need to update on the connect process", and connect
/// does not finish until the required updates succeed, reporting their progress.
@Suite(.serialized, .timeLimit(.minutes(2))) struct UpdatesOnConnectTests {
    static func connect(_ terminal: PaymentTerminal, _ sandbox: Sandbox) async throws(MPOSError) {
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret, reconnect: nil) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
    }

    @Test func connectInstallsRequiredFirmwareAndConfigurationReportingProgress() async throws {
        let sandbox = try await Sandbox()
        let deadline = Date().addingTimeInterval(30 * 86_400)
        let firmware = try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(9_000, seed: 21),
            deadline: deadline)
        let configuration = try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2027.01", bytes: TerminalUpdateTests.image(5_000, seed: 22),
            deadline: deadline)
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.updates.setUpdatesOnConnect(.required)
        #expect(await terminal.updates.updatesOnConnect == .required)
        let updates = terminal.events.subscribe([.update])

        try await Self.connect(terminal, sandbox)
        // Connect returned with both required images on the reader.
        let active = await sandbox.reader.activeVersions()
        #expect(active.firmware == "2.0.0")
        #expect(active.configuration == "EMV-2027.01")
        #expect(try await terminal.updates.check().hasUpdates == false)
        // The events connect sent, read from the subscription's buffer.
        var events: [ReaderUpdateEvent] = []
        for await case .readerUpdate(let event) in updates {
            events.append(event)
            if events.contains(.finished(firmware, succeeded: true)),
                events.contains(.finished(configuration, succeeded: true))
            {
                break
            }
        }
        #expect(events.contains(.started(firmware)))
        #expect(events.contains(.started(configuration)) && events.contains(.finished(configuration, succeeded: true)))
        #expect(events.contains { if case .progress(_, 100) = $0 { true } else { false } })
        #expect(try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur)).status == .approved)
        try await sandbox.close(terminal)
    }

    @Test func onlyRequiredImagesAreInstalledIncludingOnesThatSupersedeARequiredOne() async throws {
        let sandbox = try await Sandbox()
        try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2027.01", bytes: TerminalUpdateTests.image(5_000, seed: 22),
            deadline: Date().addingTimeInterval(86_400))
        // Newer, without a deadline of its own: installing it meets the older one's deadline.
        try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2027.02", bytes: TerminalUpdateTests.image(4_000, seed: 23))
        // Firmware without a deadline is not required: connect leaves it for later.
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(6_000, seed: 26))
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.updates.setUpdatesOnConnect(.required)
        try await Self.connect(terminal, sandbox)
        let active = await sandbox.reader.activeVersions()
        #expect(active.configuration == "EMV-2027.02")
        #expect(active.firmware != "2.0.0")
        let status = try await terminal.updates.check()
        #expect(status.pending.map(\.version) == ["2.0.0"] && status.required.isEmpty)
        try await sandbox.close(terminal)
    }

    @Test func aRequiredUpdateThatFailsFailsTheConnect() async throws {
        let sandbox = try await Sandbox { configuration in
            configuration.updateRefusals = [UpdateRefusal(.begin, status: .updateNotEnoughSpace, detail: "full")]
        }
        try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2027.01", bytes: TerminalUpdateTests.image(5_000, seed: 24),
            deadline: Date().addingTimeInterval(86_400))
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.updates.setUpdatesOnConnect(.required)
        do {
            try await Self.connect(terminal, sandbox)
            Issue.record("connect finished without its required update")
        } catch {
            #expect(error.code == MPOSError.Code.updateRequired)
            #expect(error.message.contains("notEnoughSpace"))
        }
        #expect(await terminal.reader.connectionState == .notConnected)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.info() }
        try await sandbox.close(terminal)
    }

    @Test func requiredUpdatesNeedALogin() async throws {
        let sandbox = try await Sandbox()
        let terminal = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath)
        await terminal.updates.setUpdatesOnConnect(.required)
        await #expect(throws: MPOSError.notLoggedIn) { try await Self.connect(terminal, sandbox) }
        #expect(await terminal.reader.connectionState == .notConnected)
        try await sandbox.close(terminal)
    }

    @Test func withoutRequiredUpdatesConnectIsAsBefore() async throws {
        let sandbox = try await Sandbox()
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(6_000, seed: 25),
            deadline: Date().addingTimeInterval(86_400))
        let terminal = try await sandbox.terminal(connect: false)
        #expect(await terminal.updates.updatesOnConnect == UpdatesOnConnect.none)
        try await Self.connect(terminal, sandbox)
        #expect(await sandbox.reader.activeVersions().firmware != "2.0.0")
        #expect(try await terminal.updates.check().pending.count == 1)
        try await sandbox.close(terminal)
    }
}
