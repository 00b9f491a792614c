import Foundation
import Testing

/// `mpos reader discover` against `mpos reader emulate` processes, as a user runs them.
@Suite(.timeLimit(.minutes(2)))
struct ReaderDiscoverCommandTests {
    @Test func discoverListsEachEmulatorOnceWithItsAddress() throws {
        let first = try ReaderCommandTests.Emulator.start([
            "--serial", "MPSIM-000101", "--name", "Front desk",
        ])
        let second = try ReaderCommandTests.Emulator.start(["--serial", "MPSIM-000102"])
        defer {
            _ = first.stop()
            _ = second.stop()
        }
        let probes = [first, second, first].flatMap { ["--probe", "127.0.0.1:\($0.discoveryPort)"] }
        let run = try EMVDecodeBinaryTests.run(
            ["reader", "discover", "--scan-time", "1.5", "--json"] + probes)
        #expect(run.status == 0, "stderr: \(run.err)")
        let data = Data(run.out.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "\(run.out)")
        let bySerial = Dictionary(
            uniqueKeysWithValues: rows.map { ($0["serialNumber"] as? String ?? "", $0) })
        #expect(rows.count == 2 && bySerial.count == 2)
        let front = try #require(bySerial["MPSIM-000101"])
        #expect(front["name"] as? String == "Front desk" && front["transport"] as? String == "tcp")
        #expect(front["address"] as? String == "127.0.0.1:\(first.port)")
        #expect(front["model"] as? String == "Simulated Reader R1" && front["protocolVersion"] as? Int == 1)
        #expect(bySerial["MPSIM-000102"]?["address"] as? String == "127.0.0.1:\(second.port)")

        // What it found is a reader to pay with: `mpos reader info` pairs at that address.
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:\(first.port)"])
        #expect(info.status == 0 && info.out.contains("MPSIM-000101"))
    }

    @Test func aHumanListSaysWhatWasFoundOrThatNothingWas() throws {
        let emulator = try ReaderCommandTests.Emulator.start()
        defer { _ = emulator.stop() }
        let found = try EMVDecodeBinaryTests.run([
            "reader", "discover", "--scan-time", "0.5", "--probe", "127.0.0.1:\(emulator.discoveryPort)",
        ])
        #expect(found.status == 0, "stderr: \(found.err)")
        #expect(
            found.out.contains(
                "Sandbox reader  MPSIM-000001  Simulated Reader R1  tcp 127.0.0.1:\(emulator.port)"))
        #expect(found.out.contains("1 reader(s) found"))
        // Port 9 (discard) has no responder.
        let none = try EMVDecodeBinaryTests.run([
            "reader", "discover", "--scan-time", "0.3", "--probe", "127.0.0.1:9",
        ])
        #expect(none.status == 0 && none.out.contains("no readers found"))
    }

    /// The ECP seed's rule: a scan time of 0 is the default, 5 s (the process runs on the
    /// machine's clock, so the test measures the run, a lower bound only).
    @Test func aZeroScanTimeListensForTheDefaultFiveSeconds() throws {
        let start = Date()
        let run = try EMVDecodeBinaryTests.run([
            "reader", "discover", "--scan-time", "0", "--probe", "127.0.0.1:9",
        ])
        #expect(run.status == 0 && run.out.contains("no readers found"), "\(run.err)")
        #expect(Date().timeIntervalSince(start) >= 4.9)
    }

    @Test func badArgumentsExitOneWithAClearMessage() throws {
        let probe = try EMVDecodeBinaryTests.run(["reader", "discover", "--probe", "nowhere"])
        #expect(probe.status == 1 && probe.err.contains("invalid --probe 'nowhere'"))
        let time = try EMVDecodeBinaryTests.run(["reader", "discover", "--scan-time", "-1"])
        #expect(time.status == 1 && time.err.contains("invalid --scan-time"))
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:9", "--timeout", "601"])
        #expect(info.status == 1 && info.err.contains("--timeout must be 0 (the default, 15) to 600 seconds"))
        let serial = try EMVDecodeBinaryTests.run(["reader", "emulate", "--serial", ""])
        #expect(serial.status == 1 && serial.err.contains("--serial must be 1 to 64 bytes"))
    }
}
