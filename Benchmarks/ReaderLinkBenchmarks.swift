import ReaderLink
import ReaderLinkTCP
import ReaderSimulator

/// `readerlink.roundtrip`: one secured request and its response (ping/pong) between a paired
/// SDK connection and the simulated reader over loopback TCP, in microseconds.
/// `readerlink.frames_per_s`: secured frames per second through the same link with 16
/// requests in flight (each round trip is two frames).
/// Event-loop threads of the run (set by main for the `readerlink` prefix; 0 when not installed).
nonisolated(unsafe) var readerLinkEventLoops = 0

func readerLinkBenchmarks() -> [AsyncBenchmark] {
    [
        AsyncBenchmark(name: "readerlink.roundtrip") {
            try await withPairedTCPReader { connection in
                let samples = try await sampleLatencies(warmUp: 500, count: 5_000) {
                    _ = try await connection.request(.ping)
                }
                emitLatency(
                    name: "readerlink.roundtrip", unit: "us", nanoseconds: samples,
                    extra: ["event_loop_threads": Double(readerLinkEventLoops)])
            }
        },
        AsyncBenchmark(name: "readerlink.roundtrip.inprocess") {
            let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
            let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: secret))
            let (sdkSide, readerSide) = InProcessTransport.makePair()
            Task { await reader.serve(readerSide) }
            let connection = try await ReaderConnection.open(transport: sdkSide, secret: secret)
            let samples = try await sampleLatencies(warmUp: 500, count: 5_000) {
                _ = try await connection.request(.ping)
            }
            emitLatency(name: "readerlink.roundtrip.inprocess", unit: "us", nanoseconds: samples)
            await connection.close()
        },
        AsyncBenchmark(name: "readerlink.frames_per_s") {
            try await withPairedTCPReader { connection in
                let inFlight = 16
                let perTask = 2_000
                // Warm-up.
                for _ in 0..<200 { _ = try await connection.request(.ping) }
                let start = monotonicNanoseconds()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<inFlight {
                        group.addTask {
                            for _ in 0..<perTask { _ = try await connection.request(.ping) }
                        }
                    }
                    try await group.waitForAll()
                }
                let seconds = Double(monotonicNanoseconds() - start) / 1e9
                emit(
                    name: "readerlink.frames_per_s", unit: "frames/s", value: Double(inFlight * perTask * 2) / seconds,
                    extra: ["event_loop_threads": Double(readerLinkEventLoops)])
            }
        },
    ]
}

/// Runs `body` with an SDK connection paired to a simulated reader served on loopback TCP.
func withPairedTCPReader(_ body: (ReaderConnection) async throws -> Void) async throws {
    let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
    let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: secret))
    let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
    let accepting = Task {
        for await client in server.connections { Task { await reader.serve(client) } }
    }
    let transport = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
    let connection = try await ReaderConnection.open(transport: transport, secret: secret)
    do {
        try await body(connection)
    } catch {
        await connection.close()
        await server.close()
        accepting.cancel()
        throw error
    }
    await connection.close()
    await server.close()
    accepting.cancel()
}
