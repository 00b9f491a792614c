import Foundation
import Testing

/// `mpos reader update` as a user runs it: a served gateway, an emulated reader, images
/// published with `mpos gateway publish-update`, all separate processes.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReaderUpdateCommandTests {
    static let model = "Simulated Reader R1"

    static func publish(_ gateway: PaymentCommandTests.ServedGateway, kind: String, version: String, size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ version.count) }
        let file = try GatewayPublishUpdateCommandTests.file(bytes, in: gateway.directory, named: "\(kind)-\(version).bin")
        let run = try PaymentCommandTests.run([
            "gateway", "publish-update", "--db", gateway.directory.appendingPathComponent("gateway.sqlite").path,
            "--model", model, "--kind", kind, "--version", version, "--file", file,
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
    }

    static func update(_ gateway: PaymentCommandTests.ServedGateway, _ emulator: ReaderCommandTests.Emulator, _ extra: [String])
        throws -> (status: Int32, out: String, err: String)
    {
        try PaymentCommandTests.run(
            [
                "reader", "update", "--reader", "127.0.0.1:\(emulator.port)", "--gateway", gateway.url,
                "--user", gateway.user, "--password-file", gateway.passwordFile,
                "--journal", gateway.directory.appendingPathComponent("journal.sqlite").path,
            ] + extra)
    }

    @Test func checkListsWhatIsPendingThenUpdateAppliesItAndReportsTheReader() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let emulator = try ReaderCommandTests.Emulator.start()
        defer { _ = emulator.stop() }
        try Self.publish(gateway, kind: "configuration", version: "EMV-2026.12", size: 20_000)
        try Self.publish(gateway, kind: "firmware", version: "2.0.0", size: 150_000)

        let check = try Self.update(gateway, emulator, ["--check", "--json"])
        #expect(check.status == 0, "stderr: \(check.err)")
        let pending = try #require(try PaymentCommandTests.object(check.out)["pending"] as? [[String: Any]])
        #expect(pending.map { $0["version"] as? String } == ["EMV-2026.12", "2.0.0"])
        // Keys without a value are present as null, not left out.
        #expect(try PaymentCommandTests.object(check.out)["updateDeadline"] is NSNull)
        #expect(pending.allSatisfy { $0["deadline"] is NSNull })

        let plain = try Self.update(gateway, emulator, ["--check"])
        #expect(plain.out == "pending: configuration EMV-2026.12 (20000 bytes)\npending: firmware 2.0.0 (150000 bytes)\n")

        let applied = try Self.update(gateway, emulator, ["--json"])
        #expect(applied.status == 0, "stderr: \(applied.err)")
        let object = try PaymentCommandTests.object(applied.out)
        #expect(object["result"] as? String == "success")
        let list = try #require(object["applied"] as? [[String: String]])
        #expect(list == [["kind": "configuration", "version": "EMV-2026.12"], ["kind": "firmware", "version": "2.0.0"]])
        let reader = try #require(object["reader"] as? [String: String])
        #expect(reader == ["model": Self.model, "serial": "MPSIM-000001", "firmware": "2.0.0", "configuration": "EMV-2026.12"])

        // Plain output: one line per stage, then the summary; again, nothing is pending.
        let again = try Self.update(gateway, emulator, [])
        #expect(again.status == 0)
        #expect(again.out == "validation\ncheck for updates\nup to date: nothing pending\n")
    }

    @Test func aFirmwareUpdateOnALowBatteryExitsOneNamingTheRule() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let emulator = try ReaderCommandTests.Emulator.start(["--battery", "30"])
        defer { _ = emulator.stop() }
        try Self.publish(gateway, kind: "firmware", version: "2.0.0", size: 10_000)
        let run = try Self.update(gateway, emulator, [])
        #expect(run.status == 1)
        #expect(run.err.contains("update failed (batteryTooLow): Firmware needs the reader at 50 % or more"), "\(run.err)")
        let json = try Self.update(gateway, emulator, ["--json"])
        #expect(json.status == 1)
        #expect(try PaymentCommandTests.object(json.out)["result"] as? String == "batteryTooLow")
    }
}

/// `mpos reader update` killed while it writes an image: the next run resumes at the byte the
/// reader holds, and the reader ends up on the image, once.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReaderUpdateKillTests {
    @Test func aKilledUpdateResumesWhereTheReaderStandsOnTheNextRun() throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let emulator = try ReaderCommandTests.Emulator.start()
        defer { _ = emulator.stop() }
        let size = 12_000_000
        try ReaderUpdateCommandTests.publish(gateway, kind: "firmware", version: "2.0.0", size: size)

        // Killed once the reader holds a quarter of the image: the line says so.
        let (process, lines) = try ReaderUpdateKillTests.updateUntilWriting(gateway, emulator, version: "2.0.0")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the first run ended before the kill: \(lines)")
        let held = try #require(ReaderUpdateKillTests.bytesWritten(lines))
        #expect(held >= size / 4 && held < size)

        let again = try ReaderUpdateCommandTests.update(gateway, emulator, ["--json"])
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(try PaymentCommandTests.object(again.out)["result"] as? String == "success")

        // The reader's log: the first transfer from byte 0, the second from where it stood, one install.
        let logs = try PaymentCommandTests.run(["reader", "logs", "--reader", "127.0.0.1:\(emulator.port)", "--json"])
        let logLines = try #require(try PaymentCommandTests.object(logs.out)["lines"] as? [String])
        let starts = logLines.filter { $0.hasPrefix("firmware 2.0.0: transfer from byte ") }
        #expect(starts.count == 2, "\(logLines)")
        #expect(starts.first == "firmware 2.0.0: transfer from byte 0 of \(size)")
        let resumedAt = starts.last.flatMap { Int($0.split(separator: " ")[5]) } ?? 0
        #expect(resumedAt >= held, "resumed at \(resumedAt), the killed run had reported \(held)")
        #expect(logLines.filter { $0 == "firmware 2.0.0 active" }.count == 1)
    }
}
