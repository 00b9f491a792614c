import MPOSCore

/// A byte link between the SDK and a reader: Bluetooth LE on a phone, a TCP socket here, or an
/// in-process pipe in tests. ReaderLink frames, fragments and secures what crosses it; a
/// transport only moves bytes, in order, and says when the link is gone.
public protocol ReaderTransport: Sendable {
    /// The largest number of bytes a single `send` may carry, or nil when the link has no
    /// limit. A BLE characteristic allows 20; ReaderLink fragments frames to fit.
    var maximumWriteLength: Int? { get }

    /// Bytes received from the peer, in order, as the link delivers them (chunk boundaries mean
    /// nothing). The stream finishes when the link closes, from either side.
    var incoming: AsyncStream<[UInt8]> { get }

    /// Queues bytes for the peer and returns without waiting for them to be written: writes
    /// reach the peer in call order (ReaderLink calls it from one actor at a time). Throws
    /// `ReaderLinkError.linkClosed` once the link is gone; a write that fails later closes the
    /// link, which finishes `incoming`.
    func send(_ bytes: [UInt8]) throws(ReaderLinkError)

    /// Closes the link. Idempotent; `incoming` finishes on both sides.
    func close() async

    /// Who is at the other end, as a reader names its SDK when it refuses another one (a
    /// socket's "HOST:PORT"); nil when the transport cannot tell.
    var peerName: String? { get }
}

extension ReaderTransport {
    /// Nil: the transport does not know its peer.
    public var peerName: String? { nil }
}
