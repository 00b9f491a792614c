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

    @Test func aMalformedSecretIsRefusedBeforeConnecting() throws {
        let info = try EMVDecodeBinaryTests.run(["reader", "info", "--reader", "127.0.0.1:1", "--secret", "xyz"])
        #expect(info.status == 1)
        #expect(info.err.contains("shared secret"))
    }
}
