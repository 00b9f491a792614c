import EMV
import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLinkTCP
import ReaderSimulator
import Synchronization
import Testing

@testable import MPOSKit

/// Issue 19's test of updates that cannot brick a reader, end to end: the sandbox gateway's
/// catalogue over HTTP, the simulated reader over TCP keeping its slots in a state directory.
@Suite(.serialized, .timeLimit(.minutes(3))) struct UpdateInterruptionTests {
    enum Interruption: CaseIterable {
        /// The reader's link drops instead of one of its messages.
        case linkCut
        /// The reader loses power instead of sending a message: a new reader boots from its
        /// state directory behind the same server.
        case readerKilled
        /// The reader reboots instead of sending a message.
        case reboot
    }

    static func hex(_ image: FirmwareSlots.Image?) -> String? { image.map { Hex.encode($0.sha256).lowercased() } }

    @Test func anUpdateInterruptedAtAHundredRandomPointsLeavesAVerifiedImageAndTheNextAttemptCompletes() async throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let restarted = {
            var configuration = SimulatedReaderConfiguration(secret: Sandbox.secret)
            configuration.stateDirectory = state
            return configuration
        }()
        let sandbox = try await Sandbox { $0.stateDirectory = state }
        let downloads = DownloadHook()
        let terminal = try await sandbox.terminal(transport: downloads, connect: false)
        let port = sandbox.server.port
        try await terminal.connectReader(secret: Sandbox.secret) { try await TCPTransport.connect(host: "127.0.0.1", port: port) }
        _ = try await terminal.initializeTerminal()
        var digests = ["1.0.0": try #require(Self.hex(await sandbox.reader.activeImage(.firmware)))]
        var interruptedBeforeCommit = 0
        for round in 0..<100 {
            let kind = Interruption.allCases[round % Interruption.allCases.count]
            let version = "3.0.\(round + 1)"
            let previous = await sandbox.reader.activeImage(.firmware)?.version
            let size = 20_480 + Int(generator.next() % 40_960)
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let image = try await TerminalUpdateTests.publish(sandbox, kind: .firmware, version: version, bytes: bytes)
            digests[version] = image.sha256.lowercased()

            // Any of the reader's messages of the write: the begin's answer, each chunk's, the
            // verification's, the commit's, the reboot's. The fault is set once the image is
            // downloaded, when the reader's next message is the begin's answer.
            let reader = sandbox.reader
            let chunks = (size + PaymentTerminal.updateChunkSize - 1) / PaymentTerminal.updateChunkSize
            let offset = 1 + Int(generator.next() % UInt64(chunks + 4))
            let message = Mutex(0)
            downloads.onAnswer { [kind] in
                let at = await reader.linkWriteCount + offset
                message.withLock { $0 = at }
                await reader.setFaults(FaultPlan([kind == .reboot ? .reboot(atMessage: at) : .dropLink(atMessage: at)]))
            }
            switch kind {
            case .linkCut, .reboot:
                sandbox.readerSocket.beforeNextConnection { reader in
                    await reader.setFaults(.none)
                    return reader
                }
            case .readerKilled:
                sandbox.readerSocket.beforeNextConnection { reader in
                    await reader.powerOff()
                    return SimulatedReader(configuration: restarted)
                }
            }
            let operation = terminal.downloadAndApplyUpdate()
            var wentBack = false
            var written: Int64 = -1
            for await step in operation.progress where step.stage == .writeFileToTerminal {
                guard let done = step.bytesDone else { continue }
                if done < written { wentBack = true }
                written = done
            }
            let first = await operation.result()
            let context = "seed \(seed) (MPOS_TEST_SEED replays it), round \(round), \(kind) at message \(message.withLock { $0 }) "
                + "(the write's \(offset)th), first attempt \(first.type)"
            #expect(!sandbox.readerSocket.isChangePending, "the reader never came back: \(context)")
            // The terminal resumes within the attempt, from what the reader (or the one booted
            // from its flash) holds: only a lost commit answer has it write the image again.
            #expect(first.type == .success, "\(context): \(first.message ?? "")")
            #expect(!wentBack || offset == chunks + 3, "the write started over: \(context)")

            let running = await sandbox.reader.activeImage(.firmware)
            #expect(running?.version == previous || running?.version == version, "\(context)")
            #expect(Self.hex(running) == running.flatMap { digests[$0.version] }, "unverified image: \(context)")
            let next = await terminal.downloadAndApplyUpdate().result()
            #expect(next.type == (running?.version == version ? .upToDate : .success), "\(context): \(next.message ?? "")")
            if running?.version != version { interruptedBeforeCommit += 1 }
            #expect(Self.hex(await sandbox.reader.activeImage(.firmware)) == digests[version], "\(context)")
        }
        print("interruptions: 100, left on the old image: \(interruptedBeforeCommit), seed \(seed)")
        await terminal.disconnect()
        try await sandbox.close()
    }
}

/// A gateway transport that runs a hook when a piece of an update image arrives: after the
/// battery check and before the write, when the reader's next message answers the write's begin.
final class DownloadHook: GatewayTransport {
    private let base = NIOGatewayTransport()
    private let hook = Mutex<(@Sendable () async -> Void)?>(nil)

    /// Runs `body` after each image piece's answer arrives, until replaced.
    func onAnswer(_ body: @escaping @Sendable () async -> Void) { hook.withLock { $0 = body } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError) -> GatewayHTTPResponse {
        let response = try await base.send(request, to: baseURL)
        if request.path.hasPrefix(GatewayPaths.updates + "/"), request.path.hasSuffix("/file"),
            let body = hook.withLock({ $0 })
        {
            await body()
        }
        return response
    }
}
