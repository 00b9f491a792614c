import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The TSM seed's result types that need something to go wrong, end to end: the sandbox
/// gateway over HTTP, the simulated reader over TCP, each failure a real one (no session, a
/// reader short of room or refusing to store, an image that does not boot, a download cut
/// mid-body), and the reader's refusals judged by their status codes only.
@Suite(.serialized, .timeLimit(.minutes(3))) struct UpdateResultTests {
    static let model = TerminalUpdateTests.model

    /// A terminal that never logged in, connected so that it could reach the reader again.
    static func unsignedTerminal(_ sandbox: Sandbox) async throws -> PaymentTerminal {
        let terminal = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: NIOGatewayTransport())
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        return terminal
    }

    /// Runs an update; its result and the stages it went through.
    static func run(_ terminal: PaymentTerminal) async -> (UpdateResult, Set<UpdateStage>) {
        let operation = terminal.updates.downloadAndApply()
        var stages: Set<UpdateStage> = []
        for await step in operation.progress { stages.insert(step.stage) }
        return (await operation.result(), stages)
    }

    // MARK: - Validation and initialize

    @Test func withoutASessionTheUpdateEndsNotLoggedInAndInitializeThrows() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await Self.unsignedTerminal(sandbox)
        try await TerminalUpdateTests.publish(
            sandbox, kind: .configuration, version: "EMV-2026.12",
            bytes: TerminalUpdateTests.image(4_000, seed: 40))
        await #expect(throws: MPOSError.notLoggedIn) { try await terminal.updates.check() }
        #expect(await !terminal.updates.isInitialized)
        let (result, stages) = await Self.run(terminal)
        #expect(result.type == .notLoggedIn)
        #expect(result.applied.isEmpty)
        #expect(stages == [.validation])
        #expect(await terminal.updates.financeInit().type == .notLoggedIn)
        #expect(await sandbox.reader.activeVersions().configuration == "EMV-2026.11")
        try await sandbox.close(terminal)
    }

    @Test func withoutAReaderInitializeThrowsReaderNotConnected() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.updates.check() }
        #expect(await !terminal.updates.isInitialized)
        #expect(await terminal.updates.downloadAndApply().result().type == .terminalNotSelected)
        #expect(await terminal.updates.financeInit().type == .terminalNotSelected)
        try await sandbox.close(terminal)
    }

    @Test func aGatewayThatRefusesToInitializeTheReaderLeavesItUninitialized() async throws {
        let sandbox = try await Sandbox()
        // Registered on the production channel at this connect ...
        let production = try await TerminalUpdateTests.terminal(sandbox)
        #expect(await production.updates.isInitialized)
        await production.disconnect()
        // ... so the gateway refuses it to a terminal on the test channel.
        let terminal = try await TerminalUpdateTests.terminal(sandbox, channel: .test)
        do {
            _ = try await terminal.updates.check()
            Issue.record("the gateway initialized a reader registered on another channel")
        } catch {
            #expect(error.code == MPOSError.Code.gatewayRefused)
            #expect(error.message.contains("production channel"), "\(error.message)")
        }
        #expect(await !terminal.updates.isInitialized)
        #expect(await terminal.updates.downloadAndApply().result().type == .notInitialized)
        let reconciled = await terminal.updates.financeInit()
        #expect(reconciled.type == .notInitialized)
        #expect(reconciled.message?.contains("production channel") == true, "\(reconciled.message ?? "")")
        try await sandbox.close(terminal)
    }

    // MARK: - The reader's refusals, by status code

    @Test func anImageLargerThanTheReadersRoomEndsNotEnoughSpace() async throws {
        let sandbox = try await Sandbox { $0.updateCapacity = 10_000 }
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(20_000, seed: 41))
        _ = try await terminal.updates.check()
        let (result, _) = await Self.run(terminal)
        #expect(result.type == .notEnoughSpace)
        #expect(
            result.message?.hasPrefix("RL_UPDATE_NOT_ENOUGH_SPACE (0x0101)") == true,
            "\(result.message ?? "")")
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")
        try await sandbox.close(terminal)
    }

    /// An update against a reader that answers `step` once with `status` and `detail`.
    static func refused(
        at step: UpdateRefusal.Step, status: ReaderStatusCode, detail: String, times: Int? = 1
    ) async throws -> UpdateResult {
        let sandbox = try await Sandbox {
            $0.updateRefusals = [UpdateRefusal(step, status: status, detail: detail, times: times)]
        }
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(12_000, seed: 42))
        _ = try await terminal.updates.check()
        let result = await terminal.updates.downloadAndApply().result()
        if !result.isUpToDate { #expect(await sandbox.reader.activeVersions().firmware == "1.0.0") }
        try await sandbox.close(terminal)
        return result
    }

    @Test func theNotEnoughSpaceCodeDecidesWhateverTheDetailSays() async throws {
        let result = try await Self.refused(at: .begin, status: .updateNotEnoughSpace, detail: "flash full")
        #expect(result.type == .notEnoughSpace)
        #expect(result.message == "RL_UPDATE_NOT_ENOUGH_SPACE (0x0101): flash full")
    }

    @Test func aDetailReadingNotEnoughSpaceUnderAnotherCodeIsNotAShortageOfRoom() async throws {
        let result = try await Self.refused(
            at: .begin, status: .commandNotAllowed, detail: "not enough space: the reader is busy")
        #expect(result.type == .terminalWriteFailed)
        #expect(result.message == "EFT_COMMAND_NOT_ALLOWED (0x0004): not enough space: the reader is busy")
    }

    @Test func theVerificationCodeDecidesWhateverTheDetailSays() async throws {
        let refused = try await Self.refused(at: .verify, status: .updateVerificationFailed, detail: "digest")
        #expect(refused.type == .hashCheckFailed)
        let generic = try await Self.refused(
            at: .verify, status: .processingError, detail: "verification failed: x")
        #expect(generic.type == .terminalWriteFailed)
    }

    @Test func aReaderThatRefusesToStoreAPieceTwiceIsAskedAgainAndTakesTheImage() async throws {
        let result = try await Self.refused(
            at: .chunk, status: .updateWriteFailed, detail: "flash write error", times: 2)
        #expect(result.type == .success, "\(result.message ?? "")")
    }

    @Test func aReaderThatKeepsRefusingToStoreTheImageEndsTerminalWriteFailed() async throws {
        let result = try await Self.refused(
            at: .chunk, status: .updateWriteFailed, detail: "flash write error", times: nil)
        #expect(result.type == .terminalWriteFailed)
        #expect(
            result.message
                == "The reader refused to store the image \(TerminalUpdates.writeRefusalAttempts + 1) times: "
                + "RL_UPDATE_WRITE_FAILED (0x0103): flash write error")
    }

    // MARK: - Confirmation and download

    @Test func aReaderBackOnTheOldVersionAfterItsRestartEndsConfirmUpdateFailed() async throws {
        let sandbox = try await Sandbox { $0.imagesFailingToBoot = 1 }
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        let image = try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(15_000, seed: 43))
        _ = try await terminal.updates.check()
        let (result, stages) = await Self.run(terminal)
        #expect(result.type == .confirmUpdateFailed)
        #expect(result.message == "The reader runs firmware 1.0.0, not 2.0.0, after its restart.")
        #expect(stages.contains(.confirmUpdate))
        #expect(result.applied.isEmpty)
        #expect(try await terminal.reader.info().applicationVersion == "1.0.0")
        // The gateway was not told it is installed: still pending, and the next attempt boots.
        #expect(try await terminal.updates.check().pending == [image])
        let again = await terminal.updates.downloadAndApply().result()
        #expect(again.type == .success, "\(again.message ?? "")")
        #expect(again.applied == [image])
        try await sandbox.close(terminal)
    }

    /// A logged-in terminal whose gateway requests go through `proxy`, on a clock where the
    /// retries' pauses pass at once.
    static func terminal(_ sandbox: Sandbox, through proxy: CuttingProxy) async throws -> PaymentTerminal {
        let terminal = try PaymentTerminal(
            environment: proxy.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: NIOGatewayTransport(),
            clock: ShortWaitsPassClock(upTo: .seconds(8)))
        try await terminal.login()
        let port = sandbox.server.port
        try await terminal.reader.connect(secret: Sandbox.secret) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        return terminal
    }

    @Test func aGatewayThatKeepsClosingTheConnectionMidDownloadEndsDownloadFailed() async throws {
        let sandbox = try await Sandbox()
        let proxy = try await CuttingProxy(to: try #require(sandbox.gateway.baseURL.port))
        let terminal = try await Self.terminal(sandbox, through: proxy)
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(40_000, seed: 44))
        _ = try await terminal.updates.check()
        proxy.cutDownloads(.max)
        let (result, stages) = await Self.run(terminal)
        #expect(result.type == .downloadFailed)
        #expect(result.message?.hasPrefix("No answer from the gateway") == true, "\(result.message ?? "")")
        #expect(proxy.cutCount > 1, "the download was not tried again")
        #expect(stages.contains(.downloadFile))
        #expect(!stages.contains(.writeFileToTerminal))
        #expect(await sandbox.reader.activeVersions().firmware == "1.0.0")
        await terminal.disconnect()
        await proxy.close()
        try await sandbox.close()
    }

    @Test func aDownloadCutOnceMidBodyIsTriedAgainAndInstalls() async throws {
        let sandbox = try await Sandbox()
        let proxy = try await CuttingProxy(to: try #require(sandbox.gateway.baseURL.port))
        let terminal = try await Self.terminal(sandbox, through: proxy)
        let image = try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(40_000, seed: 45))
        _ = try await terminal.updates.check()
        proxy.cutDownloads(1)
        let result = await terminal.updates.downloadAndApply().result()
        #expect(result.type == .success, "\(result.message ?? "")")
        #expect(result.applied == [image])
        #expect(proxy.cutCount == 1)
        #expect(await sandbox.reader.activeVersions().firmware == "2.0.0")
        await terminal.disconnect()
        await proxy.close()
        try await sandbox.close()
    }
}
