import Foundation

/// Two connected in-memory transports, for tests and for running the simulator in-process.
/// Bytes arrive in order; closing either end finishes `incoming` on both.
public struct InProcessTransport: ImmediateWriteTransport {
    /// The write limit given to `makePair`; a larger `send` throws `.malformed`, so tests
    /// catch a sender that forgot to chunk.
    public let maximumWriteLength: Int?
    /// Bytes from the other end.
    public let incoming: AsyncStream<[UInt8]>
    private let pipe: Pipe
    private let isFirst: Bool

    /// A connected pair; `maximumWriteLength` of 20 behaves like a BLE characteristic.
    public static func makePair(maximumWriteLength: Int? = nil) -> (InProcessTransport, InProcessTransport) {
        let (aStream, aContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let (bStream, bContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let pipe = Pipe(toFirst: aContinuation, toSecond: bContinuation)
        return (
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: aStream, pipe: pipe, isFirst: true),
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: bStream, pipe: pipe, isFirst: false)
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
        private let toFirst: AsyncStream<[UInt8]>.Continuation
        private let toSecond: AsyncStream<[UInt8]>.Continuation
        private let lock = NSLock()
        private var closed = false

        init(toFirst: AsyncStream<[UInt8]>.Continuation, toSecond: AsyncStream<[UInt8]>.Continuation) {
            self.toFirst = toFirst
            self.toSecond = toSecond
        }

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
