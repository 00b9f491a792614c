#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a number of keep-alive HTTP/1.1 connections to 127.0.0.1 busy from ONE thread with
/// `poll(2)`, each with one request in flight at a time, as wrk and h2load do: the server
/// sees that many concurrent clients, while the load generator costs one thread instead of
/// one per connection. With a thread per client, 32 blocking clients on two cores spent
/// CPU on their own wake-ups and, worse, waited for the scheduler before they could read an
/// answer that had arrived, which counted as the server's latency.
enum LoopbackLoadGenerator {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends every request of `requests` (whole HTTP/1.1 requests, bytes ready to write)
    /// over `connections` connections to `127.0.0.1:port`, round robin, each connection
    /// sending its next request when the previous answer is complete. Every answer must
    /// have status 200 and a `Content-Length` body, which must hold `marker` when one is given
    /// (an approval's `"status":"approved"`: a decline must not pass for a faster approval).
    ///
    /// - Returns: the wall time in seconds and every request's latency in milliseconds.
    static func run(
        port: Int, connections: Int, requests: [[UInt8]], answersContaining marker: [UInt8]? = nil
    ) throws -> (Double, [Double]) {
        try run(ports: [port], connections: connections, requests: requests, answersContaining: marker)
    }

    /// As ``run(port:connections:requests:answersContaining:)``, with connection `i` made to
    /// `ports[i % ports.count]`: the load spread evenly over several servers.
    static func run(
        ports: [Int], connections: Int, requests: [[UInt8]], answersContaining marker: [UInt8]? = nil
    ) throws -> (Double, [Double]) {
        let count = max(1, min(connections, requests.count))
        var states: [ConnectionState] = []
        defer { for state in states { close(state.fd) } }
        for index in 0..<count {
            let queue = stride(from: index, to: requests.count, by: count).map { requests[$0] }
            let port = ports[index % ports.count]
            states.append(ConnectionState(fd: try connectNonBlocking(port: port), queue: queue, marker: marker))
        }
        var latencies: [Double] = []
        latencies.reserveCapacity(requests.count)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let start = monotonicNanoseconds()
        for index in states.indices { try states[index].startNext() }
        var polls = states.map { pollfd(fd: $0.fd, events: 0, revents: 0) }
        while states.contains(where: { !$0.isDone }) {
            for index in states.indices {
                polls[index].events = states[index].isDone ? 0 : (states[index].wantsWrite ? Int16(POLLOUT) : Int16(POLLIN))
                polls[index].revents = 0
            }
            let ready = poll(&polls, nfds_t(polls.count), 30_000)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll failed: errno \(errno)")
            }
            guard ready > 0 else { throw Failure(description: "no answer within 30 s") }
            for index in states.indices where polls[index].revents != 0 {
                if states[index].wantsWrite {
                    try states[index].flush()
                    continue
                }
                let n = chunk.withUnsafeMutableBytes { read(states[index].fd, $0.baseAddress, $0.count) }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
                guard n > 0 else { throw Failure(description: "the gateway closed a connection") }
                states[index].received += chunk[0..<n]
                while let latency = try states[index].completeAnswer() {
                    latencies.append(latency)
                    try states[index].startNext()
                }
            }
        }
        return (Double(monotonicNanoseconds() - start) / 1e9, latencies)
    }

    /// Connects to `127.0.0.1:port` with `TCP_NODELAY`, then makes the socket non-blocking.
    private static func connectNonBlocking(port: Int) throws -> Int32 {
        let fd = try connectLoopback(port: port)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// One connection: its remaining requests, what is left to write of the current one, and
    /// the bytes of the answer read so far.
    private struct ConnectionState {
        let fd: Int32
        var queue: [[UInt8]]
        var next = 0
        var outgoing: [UInt8] = []
        var sent = 0
        var received: [UInt8] = []
        var began: UInt64 = 0
        var awaitingAnswer = false
        let marker: [UInt8]?

        init(fd: Int32, queue: [[UInt8]], marker: [UInt8]?) {
            self.fd = fd
            self.queue = queue
            self.marker = marker
        }

        var isDone: Bool { !awaitingAnswer && next == queue.count && !wantsWrite }
        var wantsWrite: Bool { sent < outgoing.count }

        /// Starts the next request, if any, and writes as much of it as the socket takes.
        mutating func startNext() throws {
            guard next < queue.count else { return }
            outgoing = queue[next]
            next += 1
            sent = 0
            began = monotonicNanoseconds()
            awaitingAnswer = true
            try flush()
        }

        /// Writes what is left of the current request without blocking.
        mutating func flush() throws {
            while sent < outgoing.count {
                let n = outgoing[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                    throw Failure(description: "write failed: errno \(errno)")
                }
                sent += n
            }
        }

        /// The latency in milliseconds once `received` holds a whole answer (which it then
        /// drops), nil while it does not yet.
        mutating func completeAnswer() throws -> Double? {
            guard awaitingAnswer, let headEnd = Self.headEnd(received) else { return nil }
            let head = String(decoding: received[0..<headEnd], as: UTF8.self).lowercased()
            let lines = head.split(separator: "\r\n")
            let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            guard let lengthLine = lines.first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(lengthLine.dropFirst("content-length:".count).drop(while: { $0 == " " }))
            else { throw Failure(description: "an answer without Content-Length: \(head.prefix(200))") }
            guard received.count >= headEnd + length else { return nil }
            guard status == 200 else {
                let body = String(decoding: received[headEnd..<(headEnd + length)].prefix(200), as: UTF8.self)
                throw Failure(description: "answered \(status): \(body)")
            }
            if let marker, !Self.bytes(received[headEnd..<(headEnd + length)], contain: marker) {
                let body = String(decoding: received[headEnd..<(headEnd + length)].prefix(300), as: UTF8.self)
                throw Failure(description: "an answer without \(String(decoding: marker, as: UTF8.self)): \(body)")
            }
            received.removeFirst(headEnd + length)
            awaitingAnswer = false
            return Double(monotonicNanoseconds() - began) / 1e6
        }

        /// Whether `marker` occurs in `body`: a plain loop, since the generic `firstRange(of:)`
        /// costs the load generator as much CPU as a share of the server's work it measures.
        private static func bytes(_ body: ArraySlice<UInt8>, contain marker: [UInt8]) -> Bool {
            guard let first = marker.first, body.count >= marker.count else { return marker.isEmpty }
            var index = body.startIndex
            let last = body.endIndex - marker.count
            while index <= last {
                if body[index] == first && body[index..<(index + marker.count)].elementsEqual(marker) { return true }
                index += 1
            }
            return false
        }

        /// The index just past the blank line that ends the head, if it has arrived.
        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for i in 0...(bytes.count - 4)
            where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
                return i + 4
            }
            return nil
        }
    }
}

/// A whole HTTP/1.1 request to `127.0.0.1`, ready to write.
func httpRequestBytes(method: String, path: String, headers: [(String, String)], body: [UInt8]) -> [UInt8] {
    var request: [UInt8] = []
    request.reserveCapacity(256 + body.count)
    request += "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n".utf8
    for (name, value) in headers {
        request += "\(name): \(value)\r\n".utf8
    }
    request += "\r\n".utf8
    request += body
    return request
}
