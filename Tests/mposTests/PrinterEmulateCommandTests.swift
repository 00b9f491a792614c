import Foundation
import ReaderLinkTCP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mpos printer emulate`, driven over TCP as a point of sale drives a network printer.
@Suite(.timeLimit(.minutes(2)))
struct PrinterEmulateCommandTests {
    struct Printer {
        let process: Process
        let port: Int
        let output: FileHandle

        static func start(_ extra: [String]) throws -> Printer {
            let process = Process()
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = ["printer", "emulate", "--port", "0"] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let prefix = "listening on 127.0.0.1:"
            let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) ?? ""
            guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
                process.terminate()
                throw BinaryNotFound()
            }
            return Printer(process: process, port: port, output: out.fileHandleForReading)
        }

        /// Lines the emulator prints, up to and including the first that starts with `prefix`.
        func lines(through prefix: String) -> [String] {
            var lines: [String] = []
            while let line = PaymentCommandTests.ServedGateway.readLine(output) {
                lines.append(line)
                if line.hasPrefix(prefix) { break }
            }
            return lines
        }

        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Sends SIGTERM and waits up to `limit` (real time: a process is waited for) for the
    /// process to end; one still running then is killed, and the answer is false.
    static func terminates(_ process: Process, within limit: Duration) async -> Bool {
        process.terminate()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while process.isRunning {
            guard clock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                return false
            }
            await Task.yield()
        }
        return true
    }

    /// A stop right after start-up ends the emulator, every time: with the signals ignored
    /// and watched by a Dispatch source, a SIGTERM sent just after "listening on" was lost at
    /// times and the process never exited (nor did the test that waited for it).
    @Test func aStopRightAfterStartUpEndsTheEmulatorEveryTime() async throws {
        // Busy threads on every core: the signal was lost when the machine was loaded.
        let busy = Atomic<Bool>(true)
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount + 1 {
            Thread.detachNewThread { while busy.load(ordering: .relaxed) {} }
        }
        defer { busy.store(false, ordering: .relaxed) }
        for attempt in 0..<60 {
            let printer = try Printer.start([])
            #expect(await Self.terminates(printer.process, within: .seconds(10)), "attempt \(attempt)")
        }
    }

    /// Sends a job followed by `DLE EOT 4`, returns the status byte, then closes.
    private func print(_ job: [UInt8], port: Int) async throws -> UInt8? {
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: port)
        try link.send(job + [0x10, 0x04, 4])
        var replies = link.incoming.makeAsyncIterator()
        let reply = await replies.next()
        await link.close()
        return reply?.first
    }

    @Test func jobIsWrittenAsTextAndImageAndStatusIsAnswered() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("printer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let printer = try Printer.start(["--out", directory.path, "--columns", "32"])
        var job: [UInt8] = [0x1B, 0x40, 0x1B, 0x74, 19] + Array("SHOP\n".utf8) + [0x80, 0xD5, 0x0A]
        job += [0x1B, 0x70, 0, 25, 250, 0x1D, 0x56, 66, 0]
        #expect(try await print(job, port: printer.port) == 0x12)
        let log = printer.lines(through: "job-0001:")
        #expect(log.contains("drawer kick on pin 2 (50 ms on, 500 ms off)"))
        #expect(log.last?.hasPrefix("job-0001: 2 lines, cut") == true)
        let text = try String(contentsOf: directory.appendingPathComponent("job-0001.txt"), encoding: .utf8)
        #expect(text == "SHOP\nÇ€\n")
        let image = try Data(contentsOf: directory.appendingPathComponent("job-0001.pbm"))
        #expect(image.starts(with: Data("P4\n384 60\n".utf8)))
        #expect(printer.stop() == 0)
    }

    @Test func paperOutAnswersTheSensorAndPrintsNothing() async throws {
        let printer = try Printer.start(["--paper-out"])
        #expect(try await print(Array("hello\n".utf8) + [0x1D, 0x56, 0], port: printer.port) == 0x72)
        let log = printer.lines(through: "job-0001:")
        #expect(log.last == "job-0001: 0 lines, stopped after 0 lines: paper out")
        #expect(printer.stop() == 0)
    }

    @Test func columnsOtherThan32Or48AreRefused() throws {
        let run = try EMVDecodeBinaryTests.run(["printer", "emulate", "--columns", "40"])
        #expect(run.status == 1)
        #expect(run.err.contains("--columns must be 32 or 48"))
    }
}
