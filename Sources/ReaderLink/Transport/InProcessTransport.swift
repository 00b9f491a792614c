import Foundation
import MPOSCore

/// Two connected in-memory transports, for tests and for running the simulator in-process.
/// Bytes arrive in order; closing either end finishes `incoming` on both.
public struct InProcessTransport: ImmediateWriteTransport, PipedIncomingTransport {
    /// The write limit given to `makePair`; a larger `send` throws `.malformed`, so tests
    /// catch a sender that forgot to chunk.
    public let maximumWriteLength: Int?
    /// Bytes from the other end.
    public let incoming: AsyncStream<[UInt8]>
    package var incomingPipe: AsyncPipe<[UInt8]>? { pipe.toward(first: isFirst) }
    private let pipe: Pipe
    private let isFirst: Bool

    /// A connected pair; `maximumWriteLength` of 20 behaves like a BLE characteristic.
    public static func makePair(maximumWriteLength: Int? = nil) -> (InProcessTransport, InProcessTransport) {
        let pipe = Pipe(toFirst: AsyncPipe(), toSecond: AsyncPipe())
        return (
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: pipe.toFirst.stream(), pipe: pipe, isFirst: true),
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: pipe.toSecond.stream(), pipe: pipe, isFirst: false)
        )
    }

    private init(maximumWriteLength: Int?, incoming: AsyncStream<[UInt8]>, pipe: Pipe, isFirst: Bool) {
        self.maximumWriteLength = maximumWriteLength
        self.incoming = incoming
        self.pipe = pipe
        self.isFirst = isFirst
    }

    /// Delivers `bytes` to the other end.
    public func send(_ bytes: [UInt8]) async throws(ReaderLinkError) {
        try enqueue(bytes)
    }

    /// Delivers `bytes` to the other end without suspending.
    public func enqueue(_ bytes: [UInt8]) throws(ReaderLinkError) {
        if let maximumWriteLength, bytes.count > maximumWriteLength {
            throw .malformed(
                detail: "write of \(bytes.count) bytes exceeds the transport's \(maximumWriteLength)")
        }
        try pipe.deliver(bytes, toFirst: !isFirst)
    }

    /// Closes both ends.
    public func close() async { pipe.close() }

    /// Both directions; a lock keeps each direction's writes in order and makes close final.
    private final class Pipe: @unchecked Sendable {
        // @unchecked: `closed` is only touched under `lock` (NSLock: Mutex needs iOS 18).
        let toFirst: AsyncPipe<[UInt8]>
        let toSecond: AsyncPipe<[UInt8]>
        private let lock = NSLock()
        private var closed = false

        init(toFirst: AsyncPipe<[UInt8]>, toSecond: AsyncPipe<[UInt8]>) {
            self.toFirst = toFirst
            self.toSecond = toSecond
        }

        func toward(first: Bool) -> AsyncPipe<[UInt8]> { first ? toFirst : toSecond }

        func deliver(_ bytes: [UInt8], toFirst first: Bool) throws(ReaderLinkError) {
            let delivered = lock.withLock {
                guard !closed else { return false }
                (first ? toFirst : toSecond).yield(bytes)
                return true
            }
            guard delivered else { throw .linkClosed }
        }

        func close() {
            lock.withLock {
                closed = true
                toFirst.finish()
                toSecond.finish()
            }
        }
    }
}
