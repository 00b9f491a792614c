import MPOSCore

/// Two connected in-memory transports, for tests and for running the simulator in-process.
/// Bytes arrive in order; closing either end finishes `incoming` on both.
public struct InProcessTransport: ReaderTransport {
    /// The write limit given to `makePair`; a larger `send` throws `.malformed`, so tests
    /// catch a sender that forgot to chunk.
    public let maximumWriteLength: Int?
    /// Bytes from the other end.
    public var incoming: AsyncStream<[UInt8]> { isFirst ? link.toFirst : link.toSecond }
    private let link: Link
    private let isFirst: Bool

    /// Both directions, shared by the two ends: a stream ends when it is finished or its
    /// reader is cancelled, not because the other end's value went away unread.
    private final class Link: Sendable {
        let toFirst: AsyncStream<[UInt8]>
        let toSecond: AsyncStream<[UInt8]>
        let intoFirst: AsyncStream<[UInt8]>.Continuation
        let intoSecond: AsyncStream<[UInt8]>.Continuation

        init() {
            (toFirst, intoFirst) = AsyncStream.makeStream(of: [UInt8].self)
            (toSecond, intoSecond) = AsyncStream.makeStream(of: [UInt8].self)
        }
    }

    /// A connected pair; `maximumWriteLength` of 20 behaves like a BLE characteristic.
    public static func makePair(maximumWriteLength: Int? = nil) -> (InProcessTransport, InProcessTransport) {
        let link = Link()
        return (
            InProcessTransport(maximumWriteLength: maximumWriteLength, link: link, isFirst: true),
            InProcessTransport(maximumWriteLength: maximumWriteLength, link: link, isFirst: false)
        )
    }

    private init(maximumWriteLength: Int?, link: Link, isFirst: Bool) {
        self.maximumWriteLength = maximumWriteLength
        self.link = link
        self.isFirst = isFirst
    }

    /// Delivers `bytes` to the other end. Throws `.linkClosed` once either end closed, and
    /// `.malformed` for a write over `maximumWriteLength`.
    public func send(_ bytes: [UInt8]) throws(ReaderLinkError) {
        if let maximumWriteLength, bytes.count > maximumWriteLength {
            throw .malformed(
                detail: "write of \(bytes.count) bytes exceeds the transport's \(maximumWriteLength)")
        }
        // A finished stream refuses the element: the link is closed.
        guard case .enqueued = (isFirst ? link.intoSecond : link.intoFirst).yield(bytes) else { throw .linkClosed }
    }

    /// Closes both ends.
    public func close() async {
        link.intoFirst.finish()
        link.intoSecond.finish()
    }
}
