/// What both ends of a link share: the wire (framing, fragmentation, security), the way bytes
/// reach the transport, and the pairing outcome. ``ReaderConnection`` and
/// ``ReaderDeviceSession`` each own one and drive it from their own executor.
///
/// A writer task sends what the session queued, in order: the session never waits for the
/// transport, and two writes never interleave on the link.
struct LinkEndpoint {
    let transport: any ReaderTransport
    var wire: LinkWire
    private var outbound: AsyncStream<Outbound>.Continuation?
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
    }

    /// What the writer task takes, in order: bytes for the transport, or a waiter to wake once
    /// everything queued before it was sent.
    private enum Outbound: Sendable {
        case bytes([UInt8])
        case flushed(CheckedContinuation<Void, Never>)
    }

    /// Starts the writer task. `failed` runs (once) when a write fails; later bytes are dropped.
    mutating func start(onWriteFailure failed: @escaping @Sendable () async -> Void) {
        guard writer == nil else { return }
        let (stream, continuation) = AsyncStream.makeStream(of: Outbound.self)
        outbound = continuation
        let transport = self.transport
        // Unstructured: the writer lives as long as the link, and `drained()` awaits it.
        writer = Task {
            var broken = false
            for await item in stream {
                switch item {
                case .bytes(let bytes) where !broken:
                    do { try await transport.send(bytes) } catch {
                        broken = true
                        await failed()
                    }
                case .bytes:
                    break
                case .flushed(let waiter):
                    waiter.resume()
                }
            }
            await transport.close()
        }
    }

    /// Waits until everything queued so far has been handed to the transport (or dropped
    /// because the link failed).
    func flushed() async {
        guard let outbound else { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            // A finished queue has no writer left to wake the waiter.
            if case .terminated = outbound.yield(.flushed(waiter)) { waiter.resume() }
        }
    }

    /// Frames (and, once paired, secures) one message and queues its bytes for the transport.
    /// Returns false when output was refused: the link is gone.
    mutating func send(type: FrameType, data: [UInt8]) -> Bool {
        guard !isOutputClosed else { return true }
        return hand(wire.writes(type: type, data: data))
    }

    /// Frames (and secures) several messages, in order, and queues them in as few writes as the
    /// transport allows: one, on a link without a write limit (a socket), so a burst of events
    /// costs the peer one read and one wake-up instead of one per frame. Returns false when
    /// output was refused: the link is gone.
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

    /// Queues framed bytes for the writer task, in order. False when the queue is finished.
    private func hand(_ writes: [[UInt8]]) -> Bool {
        guard let outbound else { return false }
        for bytes in writes {
            guard case .enqueued = outbound.yield(.bytes(bytes)) else { return false }
        }
        return true
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
            // Unstructured: pairing never started the writer; `drained()` awaits this close.
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
