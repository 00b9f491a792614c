import Foundation
import Testing

/// `mpos reader emulate --state DIR`: the emulator killed with SIGKILL in the middle of a
/// firmware write boots the old image, resumes the write where it stood, and keeps the new
/// image across the next kill.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReaderEmulateStateTests {
    static func firmware(_ emulator: ReaderCommandTests.Emulator) throws -> String? {
        let info = try PaymentCommandTests.run([
            "reader", "info", "--reader", "127.0.0.1:\(emulator.port)", "--json",
        ])
        #expect(info.status == 0, "stderr: \(info.err)")
        return try PaymentCommandTests.object(info.out)["firmware"] as? String
    }

    static func kill9(_ emulator: ReaderCommandTests.Emulator) {
        kill(emulator.process.processIdentifier, SIGKILL)
        emulator.process.waitUntilExit()
    }

    @Test func anEmulatorKilledMidWriteBootsTheOldImageAndTheNextRunResumes() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let state = gateway.directory.appendingPathComponent("reader-state").path
        var emulator = try ReaderCommandTests.Emulator.start(["--state", state])
        let size = 4_000_000
        try ReaderUpdateCommandTests.publish(gateway, kind: "firmware", version: "2.0.0", size: size)

        let (process, lines) = try ReaderUpdateKillTests.updateUntilWriting(
            gateway, emulator, version: "2.0.0")
        // The reader loses power first, mid-write; the terminal goes with it.
        Self.kill9(emulator)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let held = try #require(ReaderUpdateKillTests.bytesWritten(lines))
        #expect(held > 0 && held < size, "\(lines)")

        emulator = try ReaderCommandTests.Emulator.start(["--state", state])
        #expect(try Self.firmware(emulator) == "1.0.0")
        let again = try ReaderUpdateCommandTests.update(gateway, emulator, ["--json"])
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(try PaymentCommandTests.object(again.out)["result"] as? String == "success")
        let logs = try PaymentCommandTests.run([
            "reader", "logs", "--reader", "127.0.0.1:\(emulator.port)", "--json",
        ])
        let logLines = try #require(try PaymentCommandTests.object(logs.out)["lines"] as? [String])
        let resumedAt =
            logLines.first { $0.hasPrefix("firmware 2.0.0: transfer from byte ") }
            .flatMap { Int($0.split(separator: " ")[5]) } ?? 0
        #expect(
            resumedAt >= held, "resumed at \(resumedAt), the killed run had reported \(held): \(logLines)")

        Self.kill9(emulator)
        emulator = try ReaderCommandTests.Emulator.start(["--state", state])
        defer { _ = emulator.stop() }
        #expect(try Self.firmware(emulator) == "2.0.0")
    }

    @Test func aStateDirectoryThatIsAFileExitsOneWithOneLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try Data("a file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try PaymentCommandTests.run(["reader", "emulate", "--port", "0", "--state", file.path])
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(
            run.err.split(separator: "\n") == ["Error: cannot use --state: \(file.path) is not a directory"])
    }
}

extension ReaderUpdateKillTests {
    /// Starts `mpos reader update` against `emulator` and reads its lines until the first that
    /// reports bytes of firmware `version` written to the reader; the process keeps running.
    static func updateUntilWriting(
        _ gateway: PaymentCommandTests.ServedGateway, _ emulator: ReaderCommandTests.Emulator, version: String
    ) throws -> (process: Process, lines: [String]) {
        let process = Process()
        process.executableURL = try EMVDecodeBinaryTests.mposBinary()
        process.arguments = [
            "reader", "update", "--reader", "127.0.0.1:\(emulator.port)", "--gateway", gateway.url,
            "--user", gateway.user, "--password-file", gateway.passwordFile,
            "--journal", gateway.directory.appendingPathComponent("journal.sqlite").path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines: [String] = []
        while let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
            lines.append(line)
            if line.hasPrefix("write to reader: firmware \(version):") { break }
        }
        return (process, lines)
    }

    /// The bytes written that the last line reports (`… DONE/TOTAL bytes`).
    static func bytesWritten(_ lines: [String]) -> Int? {
        lines.last.flatMap {
            Int($0.split(separator: " ").dropLast().last?.split(separator: "/").first ?? "")
        }
    }
}
