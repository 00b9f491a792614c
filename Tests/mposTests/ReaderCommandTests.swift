import Foundation
import Testing

/// `mpos reader emulate` and `mpos reader info`, as a user runs them.
struct ReaderCommandTests {
    /// A started `mpos reader emulate` and the port it printed.
    struct Emulator {
        let process: Process
        let port: Int

        static func start(_ extra: [String] = []) throws -> Emulator {
            let process = Process()
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = ["reader", "emulate", "--port", "0"] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line is "listening on 127.0.0.1:PORT".
            var line = Data()
            while true {
                let byte = out.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on 127.0.0.1:"), let port = Int(text.split(separator: ":").last ?? "") else {
                process.terminate()
                throw BinaryNotFound()
            }
            return Emulator(process: process, port: port)
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
