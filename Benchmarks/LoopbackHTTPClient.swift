#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal blocking HTTP/1.1 client over one keep-alive TCP connection to 127.0.0.1, so the
/// gateway benchmarks measure the server and not a client library. One instance per thread.
final class LoopbackHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where the search for the end of the response head resumes.
    private var scanned = 0
    /// Read into, then appended to `buffer`; allocated once, not per read.
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        fd = try connectLoopback(port: port)
    }

    deinit { close(fd) }

    /// Sends one request and returns the status and body.
    func send(method: String, path: String, headers: [(String, String)], body: [UInt8]) throws -> (
        Int, [UInt8]
    ) {
        let request = httpRequestBytes(method: method, path: path, headers: headers, body: body)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "write failed") }
            sent += n
        }
        return try readResponse()
    }

    private func fill() throws {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { throw Failure(description: "connection closed") }
        buffer += chunk[0..<n]
    }

    private func readResponse() throws -> (Int, [UInt8]) {
        var headerEnd: Int?
        scanned = 0
        while headerEnd == nil {
            while scanned + 4 <= buffer.count {
                if buffer[scanned] == 13 && buffer[scanned + 1] == 10 && buffer[scanned + 2] == 13
                    && buffer[scanned + 3] == 10
                {
                    headerEnd = scanned + 4
                    break
                }
                scanned += 1
            }
            if headerEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var length = 0
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            let value = parts[1].trimmedOf(" ")
            if name == "content-length" { length = Int(value) ?? 0 }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
        buffer.removeFirst(headerEnd!)
        if chunked { return (status, try readChunked()) }
        while buffer.count < length { try fill() }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return (status, body)
    }

    private func readLine() throws -> String {
        while true {
            if let i = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let line = String(decoding: buffer[0..<i], as: UTF8.self)
                buffer.removeFirst(i + 2)
                return line
            }
            try fill()
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let size = Int(try readLine().split(separator: ";").first ?? "0", radix: 16) ?? 0
            if size == 0 {
                _ = try readLine()
                return body
            }
            while buffer.count < size + 2 { try fill() }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }
}

extension StringProtocol {
    fileprivate func trimmedOf(_ set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}

/// A TCP connection to `127.0.0.1:port` with `TCP_NODELAY` (requests go out at once), as a
/// blocking socket.
func connectLoopback(port: Int) throws -> Int32 {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw LoopbackHTTPClient.Failure(description: "socket() failed") }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard result == 0 else {
        close(fd)
        throw LoopbackHTTPClient.Failure(description: "connect() to port \(port) failed")
    }
    return fd
}
