/// What both ends of a link share: the wire (framing, fragmentation, security), the way bytes
/// reach the transport, and the pairing outcome. ``ReaderConnection`` and
/// ``ReaderDeviceSession`` each own one and drive it from their own executor.
///
/// Writes go straight to an ``ImmediateWriteTransport`` from the session's executor; any other
/// transport gets a writer task that sends what the session queued, in order.
struct LinkEndpoint {
    let transport: any ReaderTransport
    var wire: LinkWire
    private let immediate: (any ImmediateWriteTransport)?
    private var outbound: AsyncStream<[UInt8]>.Continuation?
    private var writer: Task<Void, Never>?
    private var closing: Task<Void, Never>?
    private var pairingWaiter: CheckedContinuation<Result<Void, ReaderLinkError>, Never>?
    /// How pairing ended, once it has.
    private(set) var pairingResult: Result<Void, ReaderLinkError>?
    /// Whether output has stopped (the session is closing or closed).
    private(set) var isOutputClosed = false

    init(transport: any ReaderTransport) {
        self.transport = transport
        wire = LinkWire(maximumWriteLength: transport.maximumWriteLength)
        immediate = transport as? any ImmediateWriteTransport
    }

    /// Starts the writer task when the transport cannot write without suspending. `failed` runs
    /// (once) when a write fails.
    mutating func start(onWriteFailure failed: @escaping @Sendable () async -> Void) {
        guard immediate == nil, writer == nil else { return }
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        outbound = continuation
        let transport = self.transport
        writer = Task {
            for await bytes in stream {
                do { try await transport.send(bytes) } catch {
                    await failed()
                    break
                }
            }
            await transport.close()
        }
    }

    /// Frames (and, once paired, secures) one message and hands its bytes to the transport.
    /// Returns false when the transport refused them: the link is gone.
    mutating func send(type: FrameType, data: [UInt8]) -> Bool {
        guard !isOutputClosed else { return true }
        return hand(wire.writes(type: type, data: data))
    }

    /// Frames (and secures) several messages, in order, and hands them to the transport in as
    /// few writes as it allows: one, on a link without a write limit (a socket), so a burst of
    /// events costs the peer one read and one wake-up instead of one per frame. Returns false
    /// when the transport refused them: the link is gone.
    mutating func send(batch messages: [(type: FrameType, data: [UInt8])]) -> Bool {
        guard transport.maximumWriteLength == nil, messages.count > 1 else {
            for message in messages where !send(type: message.type, data: message.data) { return false }
            return true
        }
        guard !isOutputClosed else { return true }
        var bytes: [UInt8] = []
        for message in messages {
            for write in wire.writes(type: message.type, data: message.data) { bytes += write }
        }
        return hand([bytes])
    }

    /// Hands framed bytes to the transport, in order: straight to an immediate transport, or
    /// to the writer task. False when the transport refused them (the link is gone).
    private func hand(_ writes: [[UInt8]]) -> Bool {
        guard let immediate else {
            for bytes in writes { outbound?.yield(bytes) }
            return true
        }
        do {
            for bytes in writes { try immediate.enqueue(bytes) }
            return true
        } catch {
            return false
        }
    }

    /// Records how pairing ended and wakes whoever waits for it; later outcomes are ignored.
    mutating func finishPairing(_ result: Result<Void, ReaderLinkError>) {
        guard pairingResult == nil else { return }
        pairingResult = result
        pairingWaiter?.resume(returning: result)
        pairingWaiter = nil
    }

    /// Parks the pairing waiter; `finishPairing` resumes it.
    mutating func awaitPairing(_ continuation: CheckedContinuation<Result<Void, ReaderLinkError>, Never>) {
        if let pairingResult {
            continuation.resume(returning: pairingResult)
        } else {
            pairingWaiter = continuation
        }
    }

    /// Stops output: what was already handed over still goes out, then the transport closes.
    mutating func closeOutput() {
        guard !isOutputClosed else { return }
        isOutputClosed = true
        if let outbound {
            outbound.finish()
        } else {
            let transport = self.transport
            closing = Task { await transport.close() }
        }
    }

    /// Waits until the transport has been closed after `closeOutput()`.
    func drained() async {
        await writer?.value
        await closing?.value
    }
}

/// An injected clock reduced to what request deadlines need: time elapsed since the link
/// opened, and sleeping for a duration.
struct LinkClock: Sendable {
    let elapsed: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
    }
}
