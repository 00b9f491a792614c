import Foundation
import ReaderLinkTCP

/// A TCP proxy on 127.0.0.1 port 0 in front of a gateway that passes everything through, except
/// that it can cut the answers to update image downloads: the status line, the headers and the
/// first bytes of the body reach the client, then the connection closes, as a gateway or a
/// network that fails mid-download does.
final class CuttingProxy: Sendable {
    /// Body bytes a cut answer still carries.
    static let bodyBytesBeforeCut = 100

    private let server: TCPReaderServer
    private let serving: Task<Void, Never>
    /// Downloads left to cut (`Int.max`: every one) and downloads cut so far.
    private let state = Locked((left: 0, cut: 0))

    var port: Int { server.port }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
    /// How many download answers were cut.
    var cutCount: Int { state.withLock { $0.cut } }

    /// - Parameter upstream: the gateway's port on 127.0.0.1.
    init(to upstream: Int) async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        self.server = server
        let state = self.state
        serving = Task {
            for await client in server.connections {
                Task { await Self.relay(client, to: upstream, state: state) }
            }
        }
    }

    /// Cuts the answers to the next `count` image downloads (every one with `Int.max`).
    func cutDownloads(_ count: Int) { state.withLock { $0.left = count } }

    func close() async {
        await server.close()
        serving.cancel()
    }

    private static func relay(_ client: TCPTransport, to upstream: Int, state: Locked<(left: Int, cut: Int)>)
        async
    {
        guard let gateway = try? await TCPTransport.connect(host: "127.0.0.1", port: upstream) else {
            await client.close()
            return
        }
        // Set when a download request went up whose answer is to be cut; one request at a time
        // per connection (HTTP/1.1 without pipelining), so the next answer is that one.
        let cutNext = Locked(false)
        let up = Task {
            for await bytes in client.incoming {
                let head = String(decoding: bytes.prefix(256), as: UTF8.self)
                if head.hasPrefix("GET /v1/updates/"),
                    head.split(separator: " ").dropFirst().first?.hasSuffix("/file") == true
                {
                    let cut = state.withLock { state -> Bool in
                        guard state.left > 0 else { return false }
                        if state.left != Int.max { state.left -= 1 }
                        state.cut += 1
                        return true
                    }
                    if cut { cutNext.withLock { $0 = true } }
                }
                try? gateway.send(bytes)
            }
            await gateway.close()
        }
        var answer: [UInt8] = []
        for await bytes in gateway.incoming {
            guard cutNext.withLock({ $0 }) else {
                try? client.send(bytes)
                continue
            }
            answer += bytes
            guard answer.count >= 4,
                let end = (0...(answer.count - 4)).first(where: {
                    answer[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10])
                }),
                answer.count >= end + 4 + Self.bodyBytesBeforeCut
            else { continue }
            try? client.send(Array(answer[..<(end + 4 + Self.bodyBytesBeforeCut)]))
            break
        }
        await client.close()
        await gateway.close()
        up.cancel()
    }
}
