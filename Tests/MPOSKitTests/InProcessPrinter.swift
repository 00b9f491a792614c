import MPOSKit
import PrinterSimulator
import ReaderLinkTCP
import Synchronization

/// A printer in process: a ``PrinterEmulator`` that each ``connection()`` reaches, replies
/// coming back on that connection's `incoming`; `change(after:)` changes the printer's state
/// once that many bytes arrived (the paper running out mid-job).
final class InProcessPrinter: Sendable {
    struct State {
        var emulator: PrinterEmulator
        var received = 0
        var jobs: [PrintJob] = []
        var log: [String] = []
        var change: (after: Int, apply: @Sendable (inout PrinterState) -> Void)?
    }

    let answersStatus: Bool
    let state: Mutex<State>

    init(_ emulator: PrinterEmulator = PrinterEmulator(), answersStatus: Bool = true) {
        self.answersStatus = answersStatus
        state = Mutex(State(emulator: emulator))
    }

    /// A new connection to the printer, as a socket to a network printer is.
    func connection() -> any PrinterConnection { Connection(printer: self) }

    /// Applies `change` to the printer's state once `bytes` bytes (status requests included)
    /// have arrived.
    func change(after bytes: Int, _ change: @escaping @Sendable (inout PrinterState) -> Void) {
        state.withLock { $0.change = (bytes, change) }
    }

    fileprivate func receive(_ bytes: [UInt8]) -> [UInt8] {
        state.withLock { state in
            // The change happens while the bytes that cross the mark are printing.
            state.received += bytes.count
            if let change = state.change, state.received >= change.after {
                change.apply(&state.emulator.state)
                state.change = nil
            }
            let output = state.emulator.receive(bytes)
            state.jobs += output.jobs
            state.log += output.log
            return answersStatus ? output.reply : []
        }
    }

    fileprivate func endOfStream() {
        state.withLock { state in
            let output = state.emulator.endOfStream()
            state.jobs += output.jobs
            state.log += output.log
        }
    }

    var jobs: [PrintJob] { state.withLock { $0.jobs } }
    var log: [String] { state.withLock { $0.log } }
    var received: Int { state.withLock { $0.received } }

    private struct Connection: PrinterConnection {
        let printer: InProcessPrinter
        let incoming: AsyncStream<[UInt8]>
        let sink: AsyncStream<[UInt8]>.Continuation

        init(printer: InProcessPrinter) {
            self.printer = printer
            (incoming, sink) = AsyncStream.makeStream(of: [UInt8].self)
        }

        var answersStatus: Bool { printer.answersStatus }

        func send(_ bytes: [UInt8]) async throws(MPOSError) {
            let reply = printer.receive(bytes)
            if !reply.isEmpty { sink.yield(reply) }
        }

        func close() async {
            printer.endOfStream()
            sink.finish()
        }
    }
}

/// A ``PrinterEmulator`` served over TCP on 127.0.0.1 port 0, as `mpos printer emulate`
/// serves it; the jobs it prints arrive on ``jobs``.
final class ServedPrinter: Sendable {
    let server: TCPReaderServer
    /// Every job, as the emulator completes it (at a cut, or when the connection closes).
    let jobs: AsyncStream<PrintJob>
    private let serving: Task<Void, Never>

    init(model: PrinterModel, state: PrinterState = PrinterState()) async throws {
        server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        let (jobs, sink) = AsyncStream.makeStream(of: PrintJob.self)
        self.jobs = jobs
        // Unstructured: serves connections one at a time until `close()`.
        serving = Task {
            var emulator = PrinterEmulator(model: model, state: state)
            for await client in connections {
                for await bytes in client.incoming {
                    let output = emulator.receive(bytes)
                    if !output.reply.isEmpty { try? client.send(output.reply) }
                    for job in output.jobs { sink.yield(job) }
                }
                for job in emulator.endOfStream().jobs { sink.yield(job) }
                await client.close()
            }
            sink.finish()
        }
    }

    var port: Int { server.port }

    /// A printer for `profile` that connects here.
    func printer(_ profile: PrinterProfile) -> ReceiptPrinter {
        let port = port
        return ReceiptPrinter(profile: profile) {
            TransportPrinterConnection(try await TCPTransport.connect(host: "127.0.0.1", port: port))
        }
    }

    func close() async {
        await server.close()
        serving.cancel()
    }
}
