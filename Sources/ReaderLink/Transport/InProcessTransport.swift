import MPOSCore

/// Two connected in-memory transports, for tests and for running the simulator in-process.
/// Bytes arrive in order; closing either end finishes `incoming` on both.
public struct InProcessTransport: ReaderTransport {
    /// The write limit given to `makePair`; a larger `send` throws `.malformed`, so tests
    /// catch a sender that forgot to chunk.
    public let maximumWriteLength: Int?
    /// Bytes from the other end.
    public let incoming: AsyncStream<[UInt8]>
    /// Feeds the other end's `incoming`.
    private let outgoing: AsyncStream<[UInt8]>.Continuation
    /// Feeds this end's `incoming`, so that closing this end finishes both directions.
    private let ownIncoming: AsyncStream<[UInt8]>.Continuation

    /// A connected pair; `maximumWriteLength` of 20 behaves like a BLE characteristic.
    public static func makePair(maximumWriteLength: Int? = nil) -> (InProcessTransport, InProcessTransport) {
        let (toFirst, toFirstContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let (toSecond, toSecondContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        return (
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: toFirst, outgoing: toSecondContinuation,
                ownIncoming: toFirstContinuation),
            InProcessTransport(
                maximumWriteLength: maximumWriteLength, incoming: toSecond, outgoing: toFirstContinuation,
                ownIncoming: toSecondContinuation)
        )
    }

    private init(
        maximumWriteLength: Int?, incoming: AsyncStream<[UInt8]>, outgoing: AsyncStream<[UInt8]>.Continuation,
        ownIncoming: AsyncStream<[UInt8]>.Continuation
    ) {
        self.maximumWriteLength = maximumWriteLength
        self.incoming = incoming
        self.outgoing = outgoing
        self.ownIncoming = ownIncoming
    }

    /// Delivers `bytes` to the other end. Throws `.linkClosed` once either end closed, and
    /// `.malformed` for a write over `maximumWriteLength`.
    public func send(_ bytes: [UInt8]) async throws(ReaderLinkError) {
        if let maximumWriteLength, bytes.count > maximumWriteLength {
            throw .malformed(
                detail: "write of \(bytes.count) bytes exceeds the transport's \(maximumWriteLength)")
        }
        // A finished stream refuses the element: the link is closed.
        guard case .enqueued = outgoing.yield(bytes) else { throw .linkClosed }
    }

    /// Closes both ends.
    public func close() async {
        outgoing.finish()
        ownIncoming.finish()
    }
}
