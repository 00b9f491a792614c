import Foundation
import Testing

/// `mpos reader emulate` and `mpos reader info`, as a user runs them.
@Suite(.timeLimit(.minutes(2)))
struct ReaderCommandTests {
    /// A started `mpos reader emulate` and the ports it printed (its discovery responder on
    /// a free port, so that emulators running at once do not compete for the default one).
    struct Emulator {
        let process: Process
        let port: Int
        let discoveryPort: Int

        static func start(_ extra: [String] = []) throws -> Emulator {
            let process = Process()
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = ["reader", "emulate", "--port", "0", "--discovery-port", "0"] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // "listening on 127.0.0.1:PORT", then "discovery on 127.0.0.1:PORT".
            let ports = ["listening on 127.0.0.1:", "discovery on 127.0.0.1:"].map { prefix -> Int? in
                let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) ?? ""
                return line.hasPrefix(prefix) ? Int(line.dropFirst(prefix.count)) : nil
            }
            guard let port = ports[0], let discoveryPort = ports[1] else {
                process.terminate()
                throw BinaryNotFound()
            }
            return Emulator(process: process, port: port, discoveryPort: discoveryPort)
        }

        func stop() -> Int32 {
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test func infoPairsWithTheEmulatorAndPrintsTheDevice() throws {
        let emulator = try Emulator.start()
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:\(emulator.port)"])
        #expect(info.status == 0)
        #expect(info.out.contains("serial number:"))
        #expect(info.out.contains("MPSIM-000001"))
        #expect(info.out.contains("battery:"))
        #expect(emulator.stop() == 0)
    }

    @Test func aWrongSecretExitsOneNamingTheSharedSecret() throws {
        let emulator = try Emulator.start()
        let wrong = String(repeating: "AB", count: 32)
        let info = try EMVDecodeBinaryTests.run([
            "reader", "info", "--reader", "127.0.0.1:\(emulator.port)", "--secret", wrong,
        ])
        #expect(info.status == 1)
        #expect(info.err.contains("shared secret"))
        // The emulator is still usable afterwards.
        let again = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:\(emulator.port)"])
        #expect(again.status == 0)
        #expect(emulator.stop() == 0)
    }

    /// The level `mpos reader info` reports for the emulator on `port`.
    static func batteryLevel(port: Int) throws -> String? {
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:\(port)"])
        return info.out.split(separator: "\n").first { $0.contains("battery:") }
            .map { $0.split(separator: " ").last.map(String.init) ?? "" }
    }

    /// A sale through the emulator on `port`, with the embedded sandbox gateway.
    static func sale(port: Int, amount: String) throws -> Int32 {
        try EMVDecodeBinaryTests.run(["sale", "--reader", "127.0.0.1:\(port)", "--amount", amount, "--json"]).status
    }

    @Test func aLongRunningEmulatorKeepsItsBatteryLevel() throws {
        let emulator = try Emulator.start()
        #expect(try Self.batteryLevel(port: emulator.port) == "100%")
        #expect(try Self.sale(port: emulator.port, amount: "1.00") == 0)
        #expect(try Self.sale(port: emulator.port, amount: "1.01") == 0)
        #expect(try Self.batteryLevel(port: emulator.port) == "100%")
        #expect(emulator.stop() == 0)
    }

    @Test func aPinnedLevelIsReportedAndADrainingBatteryStillRefusesAtFivePercent() throws {
        let pinned = try Emulator.start(["--battery", "42"])
        #expect(try Self.batteryLevel(port: pinned.port) == "42%")
        #expect(pinned.stop() == 0)

        let draining = try Emulator.start(["--battery", "6", "--battery-drain", "1"])
        #expect(try Self.sale(port: draining.port, amount: "1.00") == 0)
        #expect(try Self.batteryLevel(port: draining.port) == "5%")
        #expect(try Self.sale(port: draining.port, amount: "1.01") != 0, "refused: battery too low")
        #expect(draining.stop() == 0)

        let bad = try EMVDecodeBinaryTests.run(["reader", "emulate", "--battery", "150"])
        #expect(bad.status == 1 && bad.err.contains("--battery must be 0 to 100"), "\(bad.err)")
    }

    @Test func aMalformedSecretIsRefusedBeforeConnecting() throws {
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:1", "--secret", "xyz"])
        #expect(info.status == 1)
        #expect(info.err.contains("shared secret"))
    }
}
