import ArgumentParser
import Foundation
import PrinterSimulator
import ReaderLinkTCP

/// `mpos printer …`
struct PrinterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "printer",
        abstract: "Run the ESC/POS receipt printer emulator.",
        subcommands: [PrinterEmulateCommand.self]
    )
}

/// `mpos printer emulate [--port N] [--out DIR] [--paper-out] [--cover-open] [--columns 32|48]`
struct PrinterEmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve an emulated ESC/POS receipt printer over raw TCP on 127.0.0.1.",
        discussion: """
            Prints 'listening on 127.0.0.1:PORT' as its first line, then accepts ESC/POS as a \
            network printer does (one connection at a time) until SIGINT or SIGTERM. It answers \
            DLE EOT status requests, writes each job (ended by a cut or by the connection closing) \
            to DIR as job-NNNN.txt (one line per printed line) and job-NNNN.pbm (the page at 8 dots \
            per mm), and logs drawer kicks and skipped commands. See docs/printer-emulator.md.
            """
    )

    @Option(help: "The TCP port; 0 picks a free one.")
    var port: Int = 9100

    @Option(help: ArgumentHelp("Where to write each job's text and page image; created if missing.", valueName: "DIR"))
    var out: String?

    @Flag(help: "Start with the paper out: status says so and nothing prints.")
    var paperOut = false

    @Flag(help: "Start with the cover open: status says so and nothing prints.")
    var coverOpen = false

    @Option(help: "Characters per line: 32 (58 mm paper) or 48 (80 mm).")
    var columns: Int = 48

    func run() async throws {
        guard let model = PrinterModel(columns: columns) else {
            throw ValidationError("--columns must be 32 or 48, not \(columns)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, not \(port)") }
        let directory = out.map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let directory {
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw CLIFailure("cannot use --out \(directory.path): \(error.localizedDescription)")
            }
        }
        let printer = EmulatedPrinter(
            emulator: PrinterEmulator(model: model, state: PrinterState(paperOut: paperOut, coverOpen: coverOpen)),
            directory: directory)
        let signals = TerminationSignals()
        let server: TCPReaderServer
        do { server = try await TCPReaderServer.bind(host: "127.0.0.1", port: port) } catch {
            throw CLIFailure("cannot listen on 127.0.0.1:\(port): \(error)")
        }
        CLIOutput.line("listening on 127.0.0.1:\(server.port)")
        let connections = server.connections
        // Unstructured: the printer serves until a signal arrives; cancelled then.
        let accepting = Task {
            for await client in connections { await printer.serve(client) }
        }
        let signal = await signals.wait()
        CLIOutput.error("received \(signal), shutting down")
        await server.close()
        accepting.cancel()
    }
}

/// The emulated printer behind the socket: one state for all connections, served in turn as a
/// network printer serves its port.
actor EmulatedPrinter {
    private var emulator: PrinterEmulator
    private let directory: URL?
    private var jobCount = 0

    init(emulator: PrinterEmulator, directory: URL?) {
        self.emulator = emulator
        self.directory = directory
    }

    func serve(_ client: TCPTransport) async {
        for await bytes in client.incoming {
            let output = emulator.receive(bytes)
            if !output.reply.isEmpty { try? client.send(output.reply) }
            report(output)
        }
        report(emulator.endOfStream())
        await client.close()
    }

    private func report(_ output: PrinterEmulator.Output) {
        for line in output.log { CLIOutput.line(line) }
        for job in output.jobs { save(job) }
    }

    private func save(_ job: PrintJob) {
        jobCount += 1
        let name = String(format: "job-%04d", jobCount)
        var summary = "\(name): \(job.lines.count) lines" + (job.cut ? ", cut" : "")
        if let stop = job.stop { summary += ", stopped after \(stop.linesPrinted) lines: \(stop.reason)" }
        let (image, notes) = PageRenderer.render(job, model: emulator.model)
        for note in notes { CLIOutput.line("\(name): \(note)") }
        if let directory {
            do {
                try Data(job.text.utf8).write(to: directory.appendingPathComponent(name + ".txt"))
                try Data(image.pbm).write(to: directory.appendingPathComponent(name + ".pbm"))
                summary += " -> \(directory.appendingPathComponent(name).path).txt, .pbm"
            } catch {
                CLIOutput.error("\(name): cannot write to \(directory.path): \(error.localizedDescription)")
            }
        }
        CLIOutput.line(summary)
    }
}
