import Foundation
import Testing

/// `mpos reader info --json`, `mpos reader logs` and `mpos reader scan` against a real
/// `mpos reader emulate`, as a user runs them.
@Suite(.timeLimit(.minutes(2)))
struct ReaderToolsCommandTests {
    typealias Emulator = ReaderCommandTests.Emulator

    static func run(_ arguments: [String], on emulator: Emulator) throws -> (
        status: Int32, out: String, err: String
    ) {
        try EMVDecodeBinaryTests.run(["reader"] + arguments + ["--reader", "127.0.0.1:\(emulator.port)"])
    }

    @Test func infoAsJSONNamesTheVersionsAnUpdateChangesAndTheBattery() throws {
        let emulator = try Emulator.start(["--serial", "MPSIM-TOOLS7", "--battery", "42"])
        defer { _ = emulator.stop() }
        let info = try Self.run(["info", "--json"], on: emulator)
        #expect(info.status == 0, "\(info.err)")
        let object = try PaymentCommandTests.object(info.out)
        #expect(object["model"] as? String == "Simulated Reader R1")
        #expect(object["serial"] as? String == "MPSIM-TOOLS7")
        #expect(object["firmware"] as? String == "1.0.0")
        #expect(object["configuration"] as? String == "EMV-2026.11")
        #expect(object["manufacturer"] as? String == "MPOSKit")
        #expect(object["application"] as? String == "mpos-sim")
        #expect(object["publicKeys"] as? String == "CAPK-2026.11")
        #expect(object["generalParameters"] as? String == "GP-2026.11")
        let battery = try #require(object["battery"] as? [String: Any])
        #expect(battery["percentage"] as? Int == 42)
        #expect(battery["charging"] as? Bool == false)
        #expect(battery["externalPower"] as? Bool == false)
    }

    @Test func anEmptyLogIsAStatusAndALevelMakesTheReaderLogItsPairings() throws {
        let emulator = try Emulator.start()
        defer { _ = emulator.stop() }
        // The emulator logs at info from power-on: this run's own pairing is in its log.
        let first = try Self.run(["logs", "--level", "none", "--reset"], on: emulator)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("paired, protocol version"), "\(first.out)")

        // Cleared, and nothing logged since at level none.
        let empty = try Self.run(["logs"], on: emulator)
        #expect(empty.status == 0, "\(empty.err)")
        #expect(empty.out == "no data available (EFT_NO_DATA_AVAILABLE): set a log level and try again\n")
        let emptyJSON = try Self.run(["logs", "--level", "info", "--json"], on: emulator)
        #expect(emptyJSON.status == 0, "\(emptyJSON.err)")
        #expect(emptyJSON.out == #"{"lines":[],"status":"noDataAvailable"}"# + "\n")

        // At info, the next terminal's pairing is logged.
        let logged = try Self.run(["logs", "--json", "--reset"], on: emulator)
        #expect(logged.status == 0, "\(logged.err)")
        let object = try PaymentCommandTests.object(logged.out)
        #expect(object["status"] as? String == "success")
        let lines = try #require(object["lines"] as? [String])
        #expect(lines.contains { $0.hasPrefix("paired, protocol version") }, "\(lines)")

        // --reset cleared it: only this run's own pairing is there now.
        let after = try Self.run(["logs"], on: emulator)
        #expect(after.status == 0, "\(after.err)")
        #expect(after.out.split(separator: "\n").filter { $0.hasPrefix("paired") }.count == 1, "\(after.out)")
    }

    @Test func aSingleScanPrintsOneCodeAndAMultiScanStopsAtTheCount() throws {
        let emulator = try Emulator.start([
            "--barcode", "4006381333931", "--barcode", "A-1:Code 128", "--barcode",
            "https://example.com/x:QR",
        ])
        // --timeout only bounds a failure; every run here ends by its count.
        let single = try Self.run(["scan", "--timeout", "30"], on: emulator)
        #expect(single.status == 0, "\(single.err)")
        #expect(single.out == "EAN-13 4006381333931\n")

        let multi = try Self.run(
            ["scan", "--multi", "--count", "2", "--json", "--timeout", "30"], on: emulator)
        #expect(multi.status == 0, "\(multi.err)")
        #expect(
            multi.out == """
                {"barcode":"A-1","symbology":"Code 128"}
                {"barcode":"https://example.com/x","symbology":"QR"}

                """)
        // The emulator, feeding codes, still shuts down cleanly.
        #expect(emulator.stop() == 0)
    }

    @Test func aScanWithoutAnyCodeEndsAtTheTimeoutWithExitOne() throws {
        let emulator = try Emulator.start()
        defer { _ = emulator.stop() }
        let scan = try Self.run(["scan", "--timeout", "1"], on: emulator)
        #expect(scan.status == 1)
        #expect(scan.out.isEmpty)
        #expect(scan.err == "Error: no code scanned within 1 s\n")
    }

    @Test(arguments: [
        (
            ["reader", "logs", "--reader", "127.0.0.1:1", "--level", "loud"],
            "--level must be none, info, full or debug"
        ),
        (
            ["reader", "scan", "--reader", "127.0.0.1:1", "--timeout", "65536"],
            "--timeout must be 0 to 65535"
        ),
        (
            ["reader", "scan", "--reader", "127.0.0.1:1", "--multi", "--count", "0"],
            "--count must be 1 or more"
        ),
        (["reader", "scan", "--reader", "127.0.0.1:1", "--count", "2"], "--count needs --multi"),
        (["reader", "scan", "--reader", "127.0.0.1:1", "--timeout", "soon"], "--timeout"),
        (["reader", "info", "--reader", "localhost", "--json"], "--reader must be HOST:PORT"),
        (["reader", "logs", "--reader", "127.0.0.1:99999"], "--reader must be HOST:PORT"),
        (["reader", "emulate", "--barcode", ":QR"], "--barcode must be CODE or CODE:SYMBOLOGY"),
        (["reader", "emulate", "--barcode", "123:"], "--barcode must be CODE or CODE:SYMBOLOGY"),
    ])
    func malformedArgumentsExitOneWithOneLine(arguments: [String], message: String) throws {
        let run = try EMVDecodeBinaryTests.run(arguments)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains(message), "\(run.err)")
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
    }
}
