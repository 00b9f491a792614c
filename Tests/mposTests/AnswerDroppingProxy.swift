import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP relay on a loopback port in front of a gateway that passes every byte both ways,
/// except the gateway's answer to the first request whose head holds `marker`: that answer
/// reaches the gateway's side and never the client's, as a link that drops just after the
/// gateway charged. ``waitForDroppedAnswer(seconds:)`` returns once it has.
final class AnswerDroppingProxy: Sendable {
    /// Why the relay could not start.
    struct StartFailure: Error, CustomStringConvertible { let description: String }

    #if canImport(Glibc)
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
        private static let shutBoth = Int32(SHUT_RDWR)
    #else
        private static let streamSocket = SOCK_STREAM
        private static let shutBoth = SHUT_RDWR
    #endif

    /// The port clients connect to.
    let port: Int
    private let listener: Int32
    private let target: Int
    private let marker: Data
    /// Whether an answer was dropped, and who waits for it.
    private let dropped = Mutex<(done: Bool, waiters: [DispatchSemaphore])>((false, []))

    /// Relays loopback connections to `targetPort`, dropping the answer to the request whose head holds `marker`.
    init(to targetPort: Int, dropping marker: String) throws {
        target = targetPort
        self.marker = Data(marker.utf8)
        let descriptor = socket(AF_INET, Self.streamSocket, 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 16) == 0 else {
            throw StartFailure(description: "the relay could not listen (errno \(errno))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Waits until an answer was dropped; false when none was within `seconds`.
    func waitForDroppedAnswer(seconds: Int) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let done = dropped.withLock { state in
            if !state.done { state.waiters.append(semaphore) }
            return state.done
        }
        return done || semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Stops accepting connections (those open end with their peers).
    func close() {
        shutdown(listener, Self.shutBoth)
        _ = closeDescriptor(listener)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Self.streamSocket, 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                _ = closeDescriptor(client)
                _ = closeDescriptor(server)
                continue
            }
            let link = Link(client: client, server: server)
            Thread.detachNewThread { [self] in
                defer { end(link) }
                pump(from: client, to: server) { data in
                    if !link.marked.load(ordering: .relaxed), data.range(of: marker) != nil, !isDone {
                        link.marked.store(true, ordering: .relaxed)
                    }
                    return true
                }
            }
            Thread.detachNewThread { [self] in
                defer { end(link) }
                pump(from: server, to: client) { _ in
                    guard link.marked.load(ordering: .relaxed) else { return true }
                    markDropped()
                    return false
                }
            }
        }
    }

    /// One relayed connection.
    private final class Link: Sendable {
        let client: Int32
        let server: Int32
        /// Set once the client sent the marked request: the gateway's next bytes are its answer.
        let marked = Atomic<Bool>(false)
        /// How many of the two directions ended; the second closes both descriptors.
        let ended = Atomic<Int>(0)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }
    }

    private func end(_ link: Link) {
        guard link.ended.add(1, ordering: .acquiringAndReleasing).newValue == 2 else { return }
        _ = closeDescriptor(link.client)
        _ = closeDescriptor(link.server)
    }

    private var isDone: Bool { dropped.withLock { $0.done } }

    private func markDropped() {
        let waiters = dropped.withLock { state -> [DispatchSemaphore] in
            state.done = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Copies bytes from `source` to `destination` while `pass` says so (a chunk it refuses
    /// is dropped), until either side ends; then ends both.
    private func pump(from source: Int32, to destination: Int32, _ pass: (Data) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            let chunk = Data(buffer[0..<count])
            guard pass(chunk) else { continue }
            let written = chunk.withUnsafeBytes { write(destination, $0.baseAddress, count) }
            guard written == count else { break }
        }
        shutdown(source, Self.shutBoth)
        shutdown(destination, Self.shutBoth)
    }
}
