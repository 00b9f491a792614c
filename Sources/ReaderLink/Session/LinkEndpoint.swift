/// What both ends of a link share: the wire (framing, fragmentation, security), the way bytes
/// reach the transport, and the pairing outcome. ``ReaderConnection`` and
/// ``ReaderDeviceSession`` each own one and drive it from their own executor.
///
/// Bytes go to the transport as soon as a message is framed: `ReaderTransport.send` only
/// queues them, so the session never waits for the link, and since each session sends from
/// its own actor, two writes never interleave.
struct LinkEndpoint {
    let transport: any ReaderTransport
    var wire: LinkWire
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

    /// Hands framed bytes to the transport, in order. False when the transport refused them:
    /// the link is gone.
    private func hand(_ writes: [[UInt8]]) -> Bool {
        for bytes in writes {
            do { try transport.send(bytes) } catch { return false }
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

    /// Stops output and closes the transport (what it has queued still goes out first).
    mutating func closeOutput() {
        guard !isOutputClosed else { return }
        isOutputClosed = true
        let transport = self.transport
        // Unstructured: closing is async and the session's shutdown is not; `drained()` awaits it.
        closing = Task { await transport.close() }
    }

    /// Waits until the transport has been closed after `closeOutput()`.
    func drained() async {
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
