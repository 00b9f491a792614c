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

    static func hex(_ image: FirmwareSlots.Image?) -> String? {
        image.map { Hex.encode($0.sha256).lowercased() }
    }

    @Test func anUpdateInterruptedAtAHundredRandomPointsLeavesAVerifiedImageAndTheNextAttemptCompletes()
        async throws
    {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reader-\(UUID().uuidString)"
        ).path
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
        try await terminal.reader.connect(secret: Sandbox.secret) {
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        _ = try await terminal.updates.check()
        var digests = ["1.0.0": try #require(Self.hex(await sandbox.reader.activeImage(.firmware)))]
        var interruptedBeforeCommit = 0
        for round in 0..<100 {
            let kind = Interruption.allCases[round % Interruption.allCases.count]
            let version = "3.0.\(round + 1)"
            let previous = await sandbox.reader.activeImage(.firmware)?.version
            let size = 20_480 + Int(generator.next() % 40_960)
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let image = try await TerminalUpdateTests.publish(
                sandbox, kind: .firmware, version: version, bytes: bytes)
            digests[version] = image.sha256.lowercased()

            // Any of the reader's messages of the write: the begin's answer, each chunk's, the
            // verification's, the commit's, the reboot's. The fault is set once the image is
            // downloaded, when the reader's next message is the begin's answer.
            let reader = sandbox.reader
            let chunks = (size + TerminalUpdates.updateChunkSize - 1) / TerminalUpdates.updateChunkSize
            let offset = 1 + Int(generator.next() % UInt64(chunks + 4))
            let message = Mutex(0)
            downloads.onAnswer { [kind] in
                let at = await reader.linkWriteCount + offset
                message.withLock { $0 = at }
                await reader.setFaults(
                    FaultPlan([kind == .reboot ? .reboot(atMessage: at) : .dropLink(atMessage: at)]))
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
            let operation = terminal.updates.downloadAndApply()
            var wentBack = false
            var written: Int64 = -1
            for await step in operation.progress where step.stage == .writeFileToTerminal {
                guard let done = step.bytesDone else { continue }
                if done < written { wentBack = true }
                written = done
            }
            let first = await operation.result()
            let context =
                "seed \(seed) (MPOS_TEST_SEED replays it), round \(round), \(kind) at message \(message.withLock { $0 }) "
                + "(the write's \(offset)th), first attempt \(first.type)"
            #expect(!sandbox.readerSocket.isChangePending, "the reader never came back: \(context)")
            // The terminal resumes within the attempt, from what the reader (or the one booted
            // from its flash) holds: only a lost commit answer has it write the image again.
            #expect(first.type == .success, "\(context): \(first.message ?? "")")
            #expect(!wentBack || offset == chunks + 3, "the write started over: \(context)")

            let running = await sandbox.reader.activeImage(.firmware)
            #expect(running?.version == previous || running?.version == version, "\(context)")
            #expect(
                Self.hex(running) == running.flatMap { digests[$0.version] }, "unverified image: \(context)")
            let next = await terminal.updates.downloadAndApply().result()
            #expect(
                next.type == (running?.version == version ? .upToDate : .success),
                "\(context): \(next.message ?? "")")
            if running?.version != version { interruptedBeforeCommit += 1 }
            #expect(Self.hex(await sandbox.reader.activeImage(.firmware)) == digests[version], "\(context)")
        }
        print("interruptions: 100, left on the old image: \(interruptedBeforeCommit), seed \(seed)")
        await terminal.disconnect()
        try await sandbox.close()
    }

    enum Tamper: CaseIterable {
        case flippedByte, wrongSignature, wrongModel, olderVersion
    }

    @Test func tamperedImagesAreAllRefusedWithTheirResultTypeAndTheOldImageKeepsRunning() async throws {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        let sandbox = try await Sandbox()
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        _ = try await terminal.updates.check()
        var configuration = GRDB.Configuration()
        configuration.busyMode = .timeout(10)
        let catalogue = try DatabaseQueue(
            path: sandbox.directory.appendingPathComponent("gateway.sqlite").path,
            configuration: configuration)
        var published = 0
        for round in 0..<5 {
            for tamper in Tamper.allCases {
                published += 1
                let context = "seed \(seed) (MPOS_TEST_SEED replays it), round \(round), \(tamper)"
                let running = await sandbox.reader.activeImage(.firmware)
                let bytes = (0..<(8_192 + Int(generator.next() % 8_192))).map { _ in
                    UInt8(truncatingIfNeeded: generator.next())
                }
                let version = tamper == .olderVersion ? "0.\(published).0" : "4.\(published).0"
                let image = try await TerminalUpdateTests.publish(
                    sandbox, kind: .firmware, version: version, bytes: bytes,
                    model: tamper == .wrongModel ? "Simulated Reader R2" : TerminalUpdateTests.model)
                // What the catalogue holds is changed behind the gateway's back, and put back after.
                var restore: (@Sendable (Database) throws -> Void)?
                switch tamper {
                case .flippedByte:
                    let index = Int(generator.next() % UInt64(bytes.count))
                    try await Self.flip(
                        catalogue, table: "update_image_file", column: "content", key: "image_id",
                        id: image.id
                    ) {
                        (content: inout Data) in content[index] ^= 0x01
                    }
                    restore = {
                        try Self.set(
                            $0, "update_image_file", "content", Data(bytes), key: "image_id", id: image.id)
                    }
                case .wrongSignature:
                    let index = Int(generator.next() % UInt64(image.signature.count))
                    try await Self.flip(
                        catalogue, table: "update_image", column: "signature", key: "id", id: image.id
                    ) {
                        (signature: inout String) in
                        var characters = Array(signature)
                        characters[index] = characters[index] == "0" ? "1" : "0"
                        signature = String(characters)
                    }
                    restore = {
                        try Self.set(
                            $0, "update_image", "signature", image.signature, key: "id", id: image.id)
                    }
                case .wrongModel, .olderVersion:
                    break
                }
                let result = await terminal.updates.downloadAndApply().result()
                let expected: UpdateResultType = restore == nil ? .upToDate : .hashCheckFailed
                #expect(result.type == expected, "\(context): \(result.message ?? "")")
                #expect(await sandbox.reader.activeImage(.firmware) == running, "\(context)")
                if let restore {
                    try await catalogue.write(restore)
                    #expect(await terminal.updates.downloadAndApply().result().type == .success, "\(context)")
                    #expect(
                        await sandbox.reader.activeImage(.firmware)?.sha256 == FirmwareSlots.sha256(bytes),
                        "\(context)")
                }
            }
        }
        await terminal.disconnect()
        try await sandbox.close()
    }

    static func flip<Value: DatabaseValueConvertible & Sendable>(
        _ database: DatabaseQueue, table: String, column: String, key: String, id: String,
        _ change: @escaping @Sendable (inout Value) -> Void
    ) async throws {
        try await database.write { db in
            var value = try #require(
                try Value.fetchOne(
                    db, sql: "SELECT \(column) FROM \(table) WHERE \(key) = ?", arguments: [id]))
            change(&value)
            try set(db, table, column, value, key: key, id: id)
        }
    }

    static func set(
        _ db: Database, _ table: String, _ column: String, _ value: some DatabaseValueConvertible,
        key: String, id: String
    ) throws {
        try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(key) = ?", arguments: [value, id])
        #expect(db.changesCount == 1)
    }
}

/// A gateway transport that runs a hook when a piece of an update image arrives: after the
/// battery check and before the write, when the reader's next message answers the write's begin.
final class DownloadHook: GatewayTransport {
    private let base = NIOGatewayTransport()
    private let hook = Mutex<(@Sendable () async -> Void)?>(nil)

    /// Runs `body` after each image piece's answer arrives, until replaced.
    func onAnswer(_ body: @escaping @Sendable () async -> Void) { hook.withLock { $0 = body } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        let response = try await base.send(request, to: baseURL)
        if request.path.hasPrefix(GatewayPaths.updates + "/"), request.path.hasSuffix("/file"),
            let body = hook.withLock({ $0 })
        {
            await body()
        }
        return response
    }
}
