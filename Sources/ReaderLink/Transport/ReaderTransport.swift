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

    /// Writes bytes to the peer. Throws `ReaderLinkError.linkClosed` once the link is gone.
    func send(_ bytes: [UInt8]) async throws(ReaderLinkError)

    /// Closes the link. Idempotent; `incoming` finishes on both sides.
    func close() async
}

/// A transport that can queue a write without suspending, keeping writes in call order (a
/// socket's write buffer, an in-process pipe). Sessions write to it straight from their own
/// executor instead of through a writer task, which saves a task switch per frame.
public protocol ImmediateWriteTransport: ReaderTransport {
    /// Queues bytes for the peer and returns. Throws `ReaderLinkError.linkClosed` once the
    /// link is gone.
    func enqueue(_ bytes: [UInt8]) throws(ReaderLinkError)
}

/// A transport whose incoming bytes queue in an ``AsyncPipe`` that the package's sessions
/// read directly, skipping `AsyncStream`'s generic bookkeeping on every chunk. `incoming`
/// reads the same queue: each chunk goes to one reader.
package protocol PipedIncomingTransport: ReaderTransport {
    /// The queue behind `incoming`, when there is one.
    var incomingPipe: AsyncPipe<[UInt8]>? { get }
}

extension ReaderTransport {
    /// Reads the incoming bytes until the link closes, through the pipe when there is one.
    func forEachIncoming(isolation actor: isolated (any Actor)? = #isolation, _ body: ([UInt8]) -> Void) async {
        if let pipe = (self as? any PipedIncomingTransport)?.incomingPipe {
            while let chunk = await pipe.next() { body(chunk) }
        } else {
            for await chunk in incoming { body(chunk) }
        }
    }
}
