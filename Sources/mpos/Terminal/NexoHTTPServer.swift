import Foundation
import Hummingbird
import Logging

/// A loopback HTTP server with one route, `POST /nexo`, answering each body with `handler`'s
/// bytes as JSON: how a payment terminal on the LAN takes Terminal API requests.
struct NexoHTTPServer: Sendable {
    /// The bound port (the one asked for, or the free one picked for port 0).
    let port: Int
    private let task: Task<Void, any Error>

    /// The largest request body taken; a Terminal API request is a few kilobytes.
    static let maximumBody = 1 << 20

    /// Binds 127.0.0.1:`port` and serves until ``shutdown()``.
    ///
    /// - Throws: the bind error when the port is taken.
    static func start(port: Int, handler: @escaping @Sendable (Data) async -> Data) async throws
        -> NexoHTTPServer
    {
        let router = Router()
        router.post("nexo") { request, _ -> Response in
            let body = try await request.body.collect(upTo: maximumBody)
            let answer = await handler(Data(body.readableBytesView))
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        var logger = Logger(label: "mpos.terminal-emulator")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(
                address: .hostname("127.0.0.1", port: port), serverName: "mpos-terminal-emulator"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            },
            logger: logger)
        // Unstructured: the server runs until `shutdown()`, which cancels and awaits it.
        let task = Task {
            defer { continuation.finish() }
            try await app.run()
        }
        var bound: Int?
        for await port in ports {
            bound = port
            break
        }
        guard let bound else {
            try await task.value
            throw CLIFailure("the terminal emulator stopped before it was listening")
        }
        return NexoHTTPServer(port: bound, task: task)
    }

    /// Stops serving and waits until the server has stopped.
    func shutdown() async {
        task.cancel()
        _ = try? await task.value
    }
}
