import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway
import Testing

@testable import MPOSKit

/// Terminal management end to end: images published to the sandbox gateway's catalogue over
/// HTTP, a terminal that initializes, downloads, checks, writes them to the simulated reader
/// over TCP, follows its restarts and confirms each install.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TerminalUpdateTests {
    static let model = "Simulated Reader R1"

    /// Publishes `bytes` with the sandbox's first API key; the catalogue entry.
    @discardableResult
    static func publish(
        _ sandbox: Sandbox, kind: UpdateKind, version: String, bytes: [UInt8], deadline: Date? = nil,
        channel: UpdateChannel = .production, model: String = Self.model
    ) async throws -> UpdateImage {
        var query =
            "model=\(model.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            + "&kind=\(kind.rawValue)&version=\(version)&channel=\(channel.rawValue)"
        if let deadline { query += "&deadline=\(deadline.formatted(.iso8601))" }
        let response = try await NIOGatewayTransport().send(
            GatewayHTTPRequest(
                method: "POST", path: GatewayPaths.updates + "?" + query,
                headers: [
                    GatewayHeaders.apiKey: sandbox.credentials.apiKey,
                    "Content-Type": "application/octet-stream",
                ],
                body: Data(bytes)),
            to: sandbox.gateway.baseURL)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return try GatewayJSON.decoder.decode(UpdateImage.self, from: response.body)
    }

    static func image(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) ^ seed }
    }

    /// A logged-in terminal connected so that it can reconnect after the reader restarts.
    static func terminal(_ sandbox: Sandbox, channel: UpdateChannel = .production) async throws
        -> PaymentTerminal
    {
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.updates.setChannel(channel)
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        return terminal
    }

    @Test func pendingImagesAreInstalledOneAtATimeThroughRestartsUntilUpToDate() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        #expect(try await terminal.updates.check().hasUpdates == false)
        let upToDate = await terminal.updates.downloadAndApply().result()
        #expect(upToDate.type == .upToDate)

        let configuration = try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(70_000, seed: 1))
        let firmware = try await Self.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(300_000, seed: 2))
        let status = try await terminal.updates.check()
        #expect(status.hasUpdates)
        #expect(status.pending.map(\.version) == ["EMV-2026.12", "2.0.0"])
        #expect(!status.blocked)

        let operation = terminal.updates.downloadAndApply(window: 8)
        var stages: [UpdateStage] = []
        var written: [Int64] = []
        for await step in operation.progress {
            if stages.last != step.stage { stages.append(step.stage) }
            if step.stage == .writeFileToTerminal, step.image?.kind == .firmware, let done = step.bytesDone {
                written.append(done)
            }
        }
        let result = await operation.result()
        #expect(result.type == .success, "\(result.message ?? "")")
        #expect(result.applied == [configuration, firmware])
        let round: [UpdateStage] = [
            .checkForUpdates, .downloadFile, .writeFileToTerminal, .terminalReboot, .confirmUpdate,
        ]
        #expect(stages == [.validation] + round + round + [.checkForUpdates])
        #expect(written.first == 0)
        #expect(written.last == 300_000)
        #expect(written == written.sorted())
        #expect(await sandbox.reader.activeVersions().firmware == "2.0.0")
        #expect(await sandbox.reader.activeVersions().configuration == "EMV-2026.12")
        let after = try await terminal.updates.check()
        #expect(!after.hasUpdates)
        #expect(after.pending.isEmpty)
        await terminal.disconnect()
    }

    @Test func firmwareWaitsForHalfABatteryAndConfigurationGoesAhead() async throws {
        let sandbox = try await Sandbox { $0.battery = Battery(percentage: 49, isCharging: true) }
        let terminal = try await Self.terminal(sandbox)
        let configuration = try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(10_000, seed: 3))
        try await Self.publish(sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(10_000, seed: 4))
        _ = try await terminal.updates.check()
        let result = await terminal.updates.downloadAndApply().result()
        #expect(result.type == .batteryTooLow)
        #expect(result.applied == [configuration])
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")

        // Configuration only is what may run without the merchant: it reports up to date.
        #expect(await terminal.updates.downloadAndApply(includeFirmware: false).result().type == .upToDate)
        await terminal.disconnect()
    }

    @Test func anImageSignedWithAnotherKeyNeverReachesTheReader() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        try await Self.publish(sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(20_000, seed: 5))
        try await terminal.updates.pinSigningKey(Array(repeating: 0x42, count: 32))
        _ = try await terminal.updates.check()
        let operation = terminal.updates.downloadAndApply()
        var stages: Set<UpdateStage> = []
        for await step in operation.progress { stages.insert(step.stage) }
        let result = await operation.result()
        #expect(result.type == .hashCheckFailed)
        #expect(result.message?.contains("signature") == true)
        #expect(!stages.contains(.writeFileToTerminal))
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")
        await terminal.disconnect()
    }

    @Test func aLinkLostMidWriteResumesAtTheReadersOffset() async throws {
        // The reader's link drops while pieces are in flight; the terminal reconnects and the
        // reader, still holding the unfinished image, answers the offset to go on from.
        let sandbox = try await Sandbox { $0.faults = FaultPlan([.dropLink(atMessage: 40)]) }
        let terminal = try await Self.terminal(sandbox)
        try await Self.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(400_000, seed: 6))
        _ = try await terminal.updates.check()
        let operation = terminal.updates.downloadAndApply(window: 4)
        var restarts = 0
        var last: Int64 = -1
        for await step in operation.progress where step.stage == .writeFileToTerminal {
            if let done = step.bytesDone {
                if done < last { restarts += 1 }
                last = done
            }
        }
        let result = await operation.result()
        #expect(result.type == .success, "\(result.message ?? "")")
        #expect(restarts == 0, "the write went back to an earlier offset")
        #expect(await sandbox.reader.rewrittenUpdateBytes <= 4_096, "more than one piece was received twice")
        #expect(await sandbox.reader.activeVersions().firmware == "2.0.0")
        await terminal.disconnect()
    }

    @Test func pastTheDeadlineAndTheGracePeriodPaymentsWaitForTheUpdate() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await Self.terminal(sandbox)
        try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(5_000, seed: 7),
            deadline: clock.now().addingTimeInterval(-86_400))
        // Registered now: three days of grace before the passed deadline applies.
        let fresh = try await terminal.updates.check()
        #expect(!fresh.blocked)
        #expect(fresh.updateDeadline == clock.now().addingTimeInterval(3 * 86_400))
        _ = try await terminal.sale(PaymentParameters(amount: 10_01, currency: .eur))

        clock.advance(by: 3 * 86_400 + 1)
        _ = try await terminal.login()  // three days on, the session has lapsed
        #expect(try await terminal.updates.check().blocked)
        await #expect(throws: MPOSError.updateRequired) {
            try await terminal.sale(PaymentParameters(amount: 10_02, currency: .eur))
        }
        #expect(await terminal.updates.downloadAndApply().result().type == .success)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_03, currency: .eur)).status == .approved)
        await terminal.disconnect()
    }

    @Test func aDeadlineThatPassesMidSessionStopsPaymentsWithoutAskingAgain() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await Self.terminal(sandbox)
        #expect(await terminal.updates.isInitialized)  // at connect
        let deadline = clock.now().addingTimeInterval(5 * 86_400)
        try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(5_000, seed: 9),
            deadline: deadline)
        let status = try await terminal.updates.check()
        #expect(!status.blocked && status.updateDeadline == deadline)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_11, currency: .eur)).status == .approved)

        // Nobody asks the gateway again: the deadline is judged against the clock at the payment.
        clock.advance(by: 5 * 86_400 + 1)
        await #expect(throws: MPOSError.updateRequired) {
            try await terminal.sale(PaymentParameters(amount: 10_12, currency: .eur))
        }
        #expect(await terminal.updates.downloadAndApply().result().type == .success)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_13, currency: .eur)).status == .approved)
        await terminal.disconnect()
        #expect(await !terminal.updates.isInitialized)
    }

    /// The Adyen seed's INVALID_NYC1_FIRMWARE_VERSION: overdue firmware refuses payments under
    /// its own code, until it is installed.
    @Test func overdueFirmwareRefusesPaymentsAsAnInvalidFirmwareVersion() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await Self.terminal(sandbox)
        let deadline = clock.now().addingTimeInterval(5 * 86_400)
        try await Self.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(8_000, seed: 21), deadline: deadline)
        #expect(try await terminal.updates.check().updateDeadline == deadline)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_41, currency: .eur)).status == .approved)

        clock.advance(by: 5 * 86_400 + 1)
        do {
            _ = try await terminal.sale(PaymentParameters(amount: 10_42, currency: .eur))
            Issue.record("overdue firmware took a payment")
        } catch {
            #expect(error.code == MPOSError.Code.invalidReaderFirmwareVersion)
            #expect(error.message.hasPrefix("INVALID_NYC1_FIRMWARE_VERSION"))
        }
        #expect(await terminal.updates.downloadAndApply().result().type == .success)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_43, currency: .eur)).status == .approved)
        await terminal.disconnect()
    }

    @Test func anotherReaderDoesNotInheritTheBlockedStatusOfTheFirst() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let terminal = try await Self.terminal(sandbox)  // reader A, registered now
        try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(5_000, seed: 5),
            deadline: clock.now())
        clock.advance(by: 3 * 86_400 + 1)  // A's grace is over
        #expect(try await terminal.updates.check().blocked)
        await #expect(throws: MPOSError.updateRequired) {
            try await terminal.sale(PaymentParameters(amount: 10_21, currency: .eur))
        }
        // Reader B is registered at its connect, and its own grace lets it sell.
        sandbox.readerSocket.beforeNextConnection { _ in
            var configuration = SimulatedReaderConfiguration(secret: Sandbox.secret)
            configuration.serialNumber = "MPSIM-000002"
            return SimulatedReader(configuration: configuration)
        }
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        #expect(try await terminal.reader.info().serialNumber == "MPSIM-000002")
        #expect(await terminal.updates.isInitialized)
        #expect(try await terminal.sale(PaymentParameters(amount: 10_22, currency: .eur)).status == .approved)
        await terminal.disconnect()
    }

    @Test func updatesNeedAReaderTheTerminalCanReachAgain() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()  // a single transport: no way back after a restart
        #expect(await terminal.updates.downloadAndApply().result().type == .terminalNotSelected)
        await terminal.disconnect()
        // The gateway registered the reader on the production channel at that connect, so it
        // refuses to initialize it for a terminal on the test channel: nothing to apply.
        let uninitialized = try await Self.terminal(sandbox, channel: .test)
        #expect(await !uninitialized.updates.isInitialized)
        #expect(await uninitialized.updates.downloadAndApply().result().type == .notInitialized)
        await uninitialized.disconnect()
    }

    @Test func financeInitInstallsConfigurationAndReportsItAsEvents() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        let events = terminal.events.subscribe([.update])
        let configuration = try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(50_000, seed: 8))
        try await Self.publish(sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(5_000, seed: 9))
        let result = await terminal.updates.financeInit()
        #expect(result.type == .success, "\(result.message ?? "")")
        #expect(result.applied == [configuration])
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")  // firmware waits to be asked for
        #expect(try await terminal.updates.check().pending.map(\.kind) == [.firmware])

        var seen: [ReaderUpdateEvent] = []
        for await event in events {
            guard case .readerUpdate(let update) = event else { continue }
            seen.append(update)
            if case .finished = update { break }
        }
        #expect(seen.first == .started(configuration))
        #expect(seen.last == .finished(configuration, succeeded: true))
        let percents = seen.compactMap { update -> Double? in
            if case .progress(_, let percent) = update { percent } else { nil }
        }
        #expect(percents.last == 100)
        #expect(percents == percents.sorted())
        await terminal.disconnect()
    }

    @Test func withAutomaticConfigurationUpdatesConnectingInstallsThemFirst() async throws {
        let sandbox = try await Sandbox()
        try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(8_000, seed: 10))
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.updates.setAutomaticConfigurationUpdates(true)
        let port = sandbox.server.port
        // No automatic reconnection asked for: the update still reaches the reader after its restart.
        try await terminal.reader.connect(secret: Sandbox.secret, reconnect: nil) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        #expect(await sandbox.reader.activeVersions().configuration == "EMV-2026.12")
        #expect(try await terminal.reader.info().emvParameterVersion == "EMV-2026.12")
        #expect(try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur)).status == .approved)
        await terminal.disconnect()
    }

    @Test func aTestReaderTakesTestImagesOnly() async throws {
        let sandbox = try await Sandbox { $0.updateChannel = "test" }
        let terminal = try await Self.terminal(sandbox, channel: .test)
        try await Self.publish(sandbox, kind: .firmware, version: "9.0.0", bytes: Self.image(6_000, seed: 11))
        let testImage = try await Self.publish(
            sandbox, kind: .firmware, version: "2.0.0-test", bytes: Self.image(6_000, seed: 12),
            channel: .test)
        #expect(try await terminal.updates.check().pending == [testImage])
        #expect(await terminal.updates.downloadAndApply().result().applied == [testImage])
        #expect(await sandbox.reader.activeVersions().firmware == "2.0.0-test")
        await terminal.disconnect()
    }

    @Test func oneUpdateAtATimeAndACancelledOneInstallsNothing() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.terminal(sandbox)
        try await Self.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: Self.image(200_000, seed: 13))
        _ = try await terminal.updates.check()

        let cancelled = terminal.updates.downloadAndApply()
        cancelled.cancel()  // before its first stage boundary: nothing is written
        let none = await cancelled.result()
        #expect(none.type == .cancelled)
        #expect(none.applied.isEmpty)
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")

        let first = terminal.updates.downloadAndApply()
        var iterator = first.progress.makeAsyncIterator()
        while let step = await iterator.next(), step.stage != .checkForUpdates {}
        // The first holds the terminal from its validation on.
        #expect(await terminal.updates.downloadAndApply().result().type == .terminalBusy)
        await #expect(throws: MPOSError.terminalBusy) {
            try await terminal.sale(PaymentParameters(amount: 5_00, currency: .eur))
        }
        while await iterator.next() != nil {}
        #expect(await first.result().type == .success)
        await terminal.disconnect()
    }

    @Test func theFirstSaleRegistersTheReaderAndItsDeadlinesApplyWithoutAnInitializeCall() async throws {
        let clock = ManualDateSource(start: Date(timeIntervalSince1970: 1_795_000_000))
        let sandbox = try await Sandbox(gatewayClock: clock)
        let registeredAt = clock.now()
        let seller = try await Self.terminal(sandbox)
        _ = try await seller.sale(PaymentParameters(amount: 7_00, currency: .eur))
        await seller.disconnect()

        // A day later, an image whose deadline passed long ago: the grace counts from the sale.
        clock.advance(by: 86_400)
        try await Self.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12", bytes: Self.image(3_000, seed: 14),
            deadline: Date(timeIntervalSince1970: 1_700_000_000))
        let later = try await Self.terminal(sandbox)
        let status = try await later.updates.check()
        #expect(status.registeredAt == registeredAt)
        #expect(status.updateDeadline == registeredAt.addingTimeInterval(3 * 86_400))
        await later.disconnect()

        // Three days after the sale a new session's first sale is refused, with no initialize call.
        clock.advance(by: 2 * 86_400 + 1)
        let blocked = try await Self.terminal(sandbox)
        await #expect(throws: MPOSError.updateRequired) {
            try await blocked.sale(PaymentParameters(amount: 7_01, currency: .eur))
        }
        await blocked.disconnect()
    }
}
