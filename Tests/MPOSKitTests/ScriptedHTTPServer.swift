import Foundation
import ReaderLinkTCP

/// A raw TCP server on 127.0.0.1 port 0 that reads HTTP/1.1 requests and answers each with
/// whatever bytes its script says, well-formed or not: to prove how a gateway transport
/// copes with a server that misbehaves.
final class ScriptedHTTPServer: Sendable {
    /// What the server does with one request.
    enum Reply: Sendable {
        /// Writes the bytes and keeps the connection.
        case send(String)
        /// Writes the bytes, then closes the connection.
        case sendAndClose(String)
        /// Writes the bytes in separate writes, then keeps the connection.
        case sendInParts([String])
        /// Never answers.
        case silence
    }

    /// One request as the server read it.
    struct Request: Sendable {
        /// Counts requests over all connections, from 0.
        var index: Int
        /// The connection it came on, from 0.
        var connection: Int
        /// "METHOD target".
        var line: String
        var body: String
    }

    private let server: TCPReaderServer
    private let serving: Task<Void, Never>
    private let counts = Locked((connections: 0, requests: 0))

    var port: Int { server.port }
    /// How many connections were accepted.
    var connectionCount: Int { counts.withLock { $0.connections } }

    init(_ script: @escaping @Sendable (Request) -> Reply) async throws {
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        self.server = server
        let counts = self.counts
        serving = Task {
            for await link in server.connections {
                let connection = counts.withLock { counts in
                    defer { counts.connections += 1 }
                    return counts.connections
                }
                Task { await Self.serve(link, connection: connection, counts: counts, script: script) }
            }
        }
    }

    /// Stops accepting; open connections end with their clients.
    func close() async {
        await server.close()
        serving.cancel()
    }

    private static func serve(
        _ link: TCPTransport, connection: Int, counts: Locked<(connections: Int, requests: Int)>,
        script: @Sendable (Request) -> Reply
    ) async {
        var buffer: [UInt8] = []
        for await chunk in link.incoming {
            buffer += chunk
            while let (line, body, used) = parse(buffer) {
                buffer.removeFirst(used)
                let index = counts.withLock { counts in
                    defer { counts.requests += 1 }
                    return counts.requests
                }
                switch script(Request(index: index, connection: connection, line: line, body: body)) {
                case .send(let text):
                    try? link.send(Array(text.utf8))
                case .sendAndClose(let text):
                    try? link.send(Array(text.utf8))
                    await link.close()
                    return
                case .sendInParts(let parts):
                    for part in parts { try? link.send(Array(part.utf8)) }
                case .silence:
                    break
                }
            }
        }
    }

    /// The first complete request in `bytes`: its request line, body and length.
    private static func parse(_ bytes: [UInt8]) -> (String, String, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator })
        else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        guard bytes.count >= end + 4 + length else { return nil }
        let requestLine = lines[0].split(separator: " ").prefix(2).joined(separator: " ")
        return (requestLine, String(decoding: bytes[(end + 4)..<(end + 4 + length)], as: UTF8.self), end + 4 + length)
    }

    /// A complete answer with a Content-Length body.
    static func answer(_ status: Int = 200, _ body: String, headers: String = "") -> String {
        "HTTP/1.1 \(status) OK\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)"
    }
}
