import ReaderLink
import ReaderLinkTCP
import Testing

/// The TCP transports over real loopback sockets on ephemeral ports.
@Suite(.timeLimit(.minutes(2)))
struct TCPTransportTests {
    /// Reads from `stream` until `count` bytes have arrived (or the stream ends).
    static func read(_ count: Int, from stream: AsyncStream<[UInt8]>) async -> [UInt8] {
        var received: [UInt8] = []
        for await chunk in stream {
            received += chunk
            if received.count >= count { break }
        }
        return received
    }

    @Test func carriesBytesBothWaysInOrder() async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        #expect(server.port > 0)
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        var accepted = server.connections.makeAsyncIterator()
        let peer = try #require(await accepted.next())

        let message = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.send(message)
        #expect(await Self.read(message.count, from: peer.incoming) == message)

        try peer.send([1, 2, 3])
        #expect(await Self.read(3, from: client.incoming) == [1, 2, 3])

        await client.close()
        await peer.close()
        await server.close()
    }

    @Test func closingOneSideFinishesTheOthersStreamAndFailsSends() async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let client = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        var accepted = server.connections.makeAsyncIterator()
        let peer = try #require(await accepted.next())

        await peer.close()
        var chunks = 0
        for await _ in client.incoming { chunks += 1 }
        #expect(chunks == 0)
        #expect(throws: ReaderLinkError.linkClosed) { try peer.send([0]) }
        await client.close()
        await server.close()
    }

    @Test func refusedConnectionIsLinkClosed() async throws {
        // Bind, note the port, close: nothing listens there any more.
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let port = server.port
        await server.close()
        await #expect(throws: ReaderLinkError.linkClosed) {
            _ = try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }
    }

    @Test func serverAcceptsManyClients() async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        var clients: [TCPTransport] = []
        for _ in 0..<5 { clients.append(try await TCPTransport.connect(host: "127.0.0.1", port: server.port)) }
        var accepted = server.connections.makeAsyncIterator()
        var peers: [TCPTransport] = []
        for _ in 0..<5 { peers.append(try #require(await accepted.next())) }
        for (index, client) in clients.enumerated() { try client.send([UInt8(index)]) }
        var seen: Set<UInt8> = []
        for peer in peers { seen.formUnion(await Self.read(1, from: peer.incoming)) }
        #expect(seen == [0, 1, 2, 3, 4])
        for transport in clients + peers { await transport.close() }
        await server.close()
    }
}
