import MPOSCore

/// The SDK's end of a reader link: pairs over a ``ReaderTransport``, then sends requests and
/// receives their responses and the reader's events.
///
/// ```swift
/// let secret = try SharedSecret(hex: storedHex)
/// let link = try await ReaderConnection.open(transport: transport, secret: secret)
/// let info = try await link.request(.getDeviceInfo)
/// for await event in link.events { … }
/// ```
public actor ReaderConnection {
    /// Unsolicited messages from the reader (status reports, card events, authorization
    /// requests …), in arrival order. Finishes when the link closes.
    public nonisolated let events: AsyncStream<ReaderMessage>
    private let eventSink: AsyncStream<ReaderMessage>.Continuation
    /// The protocol version agreed during pairing.
    public private(set) var version: UInt8 = 0
    /// Why the link closed: nil while open or after a plain `close()`.
    public private(set) var closeReason: ReaderLinkError?
    /// How many requests wait for their answer.
    public var pendingRequestCount: Int { pending.count }

    private enum State {
        case hello(nonce: [UInt8])
        case awaitingPaired
        case open
        case closed
    }

    private let secret: SharedSecret
    private let offered: [UInt8]
    private let timeout: Duration
    private let clock: any Clock<Duration>
    private let linkClock: LinkClock
    private var endpoint: LinkEndpoint
    private var state: State
    private var pending: [UInt32: Waiter] = [:]
    /// Each pending request's deadline, as time elapsed on `linkClock`.
    private var deadlines: [UInt32: Duration] = [:]
    /// One timer task for all pending requests; it sleeps until `watchdogWake`.
    private var watchdog: Task<Void, Never>?
    private var watchdogWake: Duration?
    private var nextRequestID: UInt32 = 1
    private var pump: Task<Void, Never>?
    private var keepAliveTask: Task<Void, Never>?
    private var heardFromReader = false
    private var spokeToReader = false

    private init(
        transport: any ReaderTransport, secret: SharedSecret, versions: [UInt8], timeout: Duration,
        clock: any Clock<Duration>
    ) {
        self.secret = secret
        self.offered = Array(Set(versions)).sorted().suffix(255)
        self.timeout = timeout
        self.clock = clock
        self.linkClock = LinkClock(clock)
        (events, eventSink) = AsyncStream.makeStream(of: ReaderMessage.self)
        endpoint = LinkEndpoint(transport: transport)
        state = .hello(nonce: PairingCrypto.nonce())
    }

    /// Opens a link: says hello, negotiates the highest common version, and pairs with
    /// `secret` (mutual challenge-response; session keys per direction).
    ///
    /// - Parameters:
    ///   - timeout: how long pairing, and later each request, may take.
    ///   - pairingTimeout: how long pairing may take when it differs from `timeout` (a
    ///     caller's own connect deadline); nil uses `timeout`.
    ///   - clock: the clock timeouts run on (a manual clock in tests).
    ///   - versions: the protocol versions offered.
    ///   - keepAlive: when set, a `ping` is sent after each such interval that carried no
    ///     frame from the reader, or none to it (the spec's rule is 15 s); an unanswered ping
    ///     closes the link with `.timeout`, so a dead reader is noticed even when nothing is
    ///     pending, and the reader hears from a live SDK even while it does all the talking.
    /// - Throws: `.sharedSecretInvalid` when the reader holds another secret,
    ///   `.unsupportedVersion` without a common version, `.readerInUse` when another SDK
    ///   holds the reader, `.timeout`, `.linkClosed`.
    public static func open(
        transport: any ReaderTransport, secret: SharedSecret, timeout: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock(), versions: [UInt8] = [ReaderLinkProtocol.version],
        keepAlive: Duration? = nil, pairingTimeout: Duration? = nil
    ) async throws(ReaderLinkError) -> ReaderConnection {
        let connection = ReaderConnection(
            transport: transport, secret: secret, versions: versions, timeout: timeout, clock: clock)
        let result = await connection.pair(within: pairingTimeout ?? timeout)
        switch result {
        case .success:
            if let keepAlive { await connection.startKeepAlive(every: keepAlive) }
            return connection
        case .failure(let error):
            await connection.shutdownAndWait(reason: error)
            throw error
        }
    }

    /// Sends a request and waits for its response, correlated by request id.
    ///
    /// An `.error(status, detail)` answer throws `.rejected(status, detail:)`. Throws
    /// `.timeout` when no answer comes within the link's timeout, `.linkClosed` (or the
    /// integrity failure that closed it) when the link goes away first.
    public func request(_ message: ReaderMessage) async throws(ReaderLinkError) -> ReaderMessage {
        try await request(message, timeout: timeout)
    }

    /// Sends a request with its own timeout (for example a reboot or an image verification).
    public func request(_ message: ReaderMessage, timeout: Duration) async throws(ReaderLinkError)
        -> ReaderMessage
    {
        guard case .open = state else { throw closeReason ?? .linkClosed }
        let id = nextRequestID
        nextRequestID = nextRequestID == .max ? 1 : nextRequestID + 1
        let deadline = linkClock.elapsed() + timeout
        send(type: .request, data: id.bigEndianBytes + message.encoded())
        guard case .open = state else { throw closeReason ?? .linkClosed }
        let result = await withCheckedContinuation { continuation in
            pending[id] = .single(continuation)
            deadlines[id] = deadline
            if watchdog == nil || deadline < (watchdogWake ?? .zero) { armWatchdog() }
        }
        switch result {
        case .success(.error(let status, let detail)): throw .rejected(status, detail: detail)
        case .success(let answer): return answer
        case .failure(let error): throw error
        }
    }

    /// Closes the link. Pending requests fail with `.linkClosed`; `events` finishes.
    public func close() async {
        await shutdownAndWait(reason: nil)
    }

    // MARK: - Internals

    private func pair(within timeout: Duration) async -> Result<Void, ReaderLinkError> {
        // Unstructured: the pump reads for the link's whole life; shutdown cancels it.
        pump = Task { await self.pumpIncoming() }
        guard case .hello(let nonce) = state else { return .failure(.linkClosed) }
        send(type: .hello, data: [UInt8(offered.count)] + offered + nonce)
        let clock = self.clock
        // Unstructured: a timer that must not hold the connection; cancelled when pairing ends.
        let timer = Task { [weak self] in
            do { try await clock.sleep(for: timeout) } catch { return }
            await self?.finishPairing(.failure(.timeout))
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { endpoint.awaitPairing($0) }
    }

    /// Reads the transport on this actor's executor, so a frame costs no extra task switch;
    /// ends the session when the link closes.
    private func pumpIncoming() async {
        for await chunk in endpoint.transport.incoming { receive(chunk) }
        await shutdownAndWait(reason: .linkClosed)
    }

    private func finishPairing(_ result: Result<Void, ReaderLinkError>) {
        endpoint.finishPairing(result)
    }

    private func finish(request id: UInt32, with result: Result<ReaderMessage, ReaderLinkError>) {
        deadlines.removeValue(forKey: id)
        switch pending.removeValue(forKey: id) {
        case .single(let continuation): continuation.resume(returning: result)
        case .window(let sink): sink.yield((id, result))
        case nil: break
        }
    }

    /// Who waits for a request's answer: one caller, or a window of requests in flight.
    private enum Waiter {
        case single(CheckedContinuation<Result<ReaderMessage, ReaderLinkError>, Never>)
        case window(WindowSink)
    }

    /// Sends one request of a window; its answer goes to `sink`.
    func sendInWindow(_ message: ReaderMessage, to sink: WindowSink, timeout: Duration?) throws(ReaderLinkError) -> UInt32 {
        guard case .open = state else { throw closeReason ?? .linkClosed }
        let id = nextRequestID
        nextRequestID = nextRequestID == .max ? 1 : nextRequestID + 1
        send(type: .request, data: id.bigEndianBytes + message.encoded())
        let deadline = linkClock.elapsed() + (timeout ?? self.timeout)
        pending[id] = .window(sink)
        deadlines[id] = deadline
        if watchdog == nil || deadline < (watchdogWake ?? .zero) { armWatchdog() }
        return id
    }

    /// Forgets requests of a window whose answers no longer matter.
    func abandonWindow(_ ids: some Sequence<UInt32>) {
        for id in ids { (pending[id], deadlines[id]) = (nil, nil) }
    }

    /// (Re)starts the one timer of the pending requests, for the earliest deadline. A request
    /// answered in time leaves the timer running; when it fires it times out what is due and
    /// sleeps again until the next deadline, or ends when nothing is pending.
    private func armWatchdog() {
        watchdog?.cancel()
        guard let next = deadlines.values.min() else {
            watchdog = nil
            watchdogWake = nil
            return
        }
        watchdogWake = next
        let clock = linkClock
        // Unstructured: one timer for all pending requests, cancelled and re-armed as they change.
        watchdog = Task { [weak self] in
            do { try await clock.sleep(max(.zero, next - clock.elapsed())) } catch { return }
            await self?.watchdogFired()
        }
    }

    private func watchdogFired() {
        let now = linkClock.elapsed()
        for (id, deadline) in deadlines where deadline <= now {
            finish(request: id, with: .failure(.timeout))
        }
        armWatchdog()
    }

    private func send(type: FrameType, data: [UInt8]) {
        spokeToReader = true
        if !endpoint.send(type: type, data: data) { shutdown(reason: .linkClosed) }
    }

    private func sendError(_ status: ReaderStatusCode, _ reason: LinkErrorReason, _ detail: String) {
        send(
            type: .error,
            data: LinkErrorBody(status: status.rawValue, reason: reason, detail: detail).encoded())
    }

    private func startKeepAlive(every interval: Duration) {
        (heardFromReader, spokeToReader) = (false, false)
        let clock = self.clock
        // Unstructured: pings for the link's life, weakly held; shutdown cancels it.
        keepAliveTask = Task { [weak self] in
            while true {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, await self.keepAliveDue() else {
                    if self == nil { return }
                    continue
                }
                do throws(ReaderLinkError) {
                    _ = try await self.request(.ping)
                } catch {
                    await self.keepAliveFailed(error)
                    return
                }
            }
        }
    }

    /// Whether the last interval was silent in either direction; starts the next interval.
    private func keepAliveDue() -> Bool {
        defer { (heardFromReader, spokeToReader) = (false, false) }
        return !(heardFromReader && spokeToReader) && pending.isEmpty
    }

    private func keepAliveFailed(_ error: ReaderLinkError) {
        if error == .timeout { shutdown(reason: .timeout) }
    }

    private func receive(_ chunk: [UInt8]) {
        heardFromReader = true
        for inbound in endpoint.wire.receive(chunk) {
            if case .closed = state { return }
            switch inbound {
            case .badFrame(let error):
                guard case .open = state else { continue }
                sendError(.invalidData, .malformedFrame, Self.detail(of: error))
            case .integrity(let error):
                sendError(.processingError, .integrity, Self.detail(of: error))
                shutdown(reason: error)
                return
            case .message(let message):
                handle(message)
            }
        }
    }

    private func handle(_ message: MessageAssembler.Message) {
        if message.type == .error {
            guard let body = try? LinkErrorBody(decoding: message.data) else { return }
            handle(errorFrame: body)
            return
        }
        switch (state, message.type) {
        case (.hello(let nonce), .helloReply):
            handleHelloReply(message.data, sdkNonce: nonce)
        case (.awaitingPaired, .paired):
            state = .open
            finishPairing(.success(()))
        case (.open, .response):
            guard let id = UInt32(bigEndianPrefixOf: message.data) else {
                sendError(.invalidData, .malformedFrame, "response without a request id")
                return
            }
            guard pending[id] != nil else { return }  // answered after its timeout
            do {
                finish(request: id, with: .success(try ReaderMessage(decoding: message.data.dropFirst(4))))
            } catch {
                finish(request: id, with: .failure(error))
            }
        case (.open, .event):
            do {
                eventSink.yield(try ReaderMessage(decoding: message.data))
            } catch {
                sendError(.invalidData, .malformedFrame, Self.detail(of: error))
            }
        case (.open, _):
            sendError(
                .commandNotAllowed, .unknownFrameType, "frame type \(message.type) not accepted by the SDK")
        default:
            break  // Nothing else is processed before pairing completes.
        }
    }

    private func handle(errorFrame body: LinkErrorBody) {
        let status = ReaderStatusCode(rawValue: body.status) ?? .processingError
        switch state {
        case .hello, .awaitingPaired:
            let error: ReaderLinkError
            switch body.reason {
            case .unsupportedVersion: error = .unsupportedVersion(body.versions.max() ?? 0)
            case .sharedSecretInvalid: error = .sharedSecretInvalid
            case .notPaired: error = .notAllowed(detail: body.detail)
            case .readerInUse: error = .readerInUse(by: body.detail)
            case .general, .integrity: error = .rejected(status, detail: body.detail)
            case .malformedFrame, .unknownFrameType:
                // Line noise the reader answered; what pairing needs still comes, or the
                // pairing timeout ends the wait.
                return
            }
            finishPairing(.failure(error))
        case .open:
            if body.reason == .integrity {
                shutdown(reason: .integrity(detail: "the reader rejected a frame: \(body.detail)"))
            }
        case .closed:
            break
        }
    }

    private func handleHelloReply(_ data: [UInt8], sdkNonce: [UInt8]) {
        guard data.count == 1 + PairingCrypto.nonceLength + PairingCrypto.proofLength else {
            finishPairing(.failure(.malformed(detail: "hello reply of \(data.count) bytes")))
            return
        }
        let chosen = data[0]
        guard offered.contains(chosen) else {
            finishPairing(.failure(.unsupportedVersion(chosen)))
            return
        }
        let deviceNonce = Array(data[1...PairingCrypto.nonceLength])
        let proof = data[(1 + PairingCrypto.nonceLength)...]
        let expected = PairingCrypto.proof(
            role: "reader", secret: secret, offered: offered, chosen: chosen, sdkNonce: sdkNonce,
            deviceNonce: deviceNonce)
        guard PairingCrypto.constantTimeEqual(expected, proof) else {
            let body = LinkErrorBody(
                status: ReaderStatusCode.sharedSecretInvalid.rawValue, reason: .sharedSecretInvalid,
                detail: "pairing proof did not verify")
            send(type: .error, data: body.encoded())
            finishPairing(.failure(.sharedSecretInvalid))
            return
        }
        version = chosen
        let ownProof = PairingCrypto.proof(
            role: "sdk", secret: secret, offered: offered, chosen: chosen, sdkNonce: sdkNonce,
            deviceNonce: deviceNonce)
        send(type: .pairProof, data: ownProof)
        let keys = PairingCrypto.sessionKeys(secret: secret, sdkNonce: sdkNonce, deviceNonce: deviceNonce)
        endpoint.wire.secure(with: SecureChannel(sendKey: keys.sdkToDevice, receiveKey: keys.deviceToSDK))
        endpoint.wire.acceptsPlainErrors = true
        state = .awaitingPaired
    }

    private func shutdown(reason: ReaderLinkError?) {
        if case .closed = state { return }
        state = .closed
        if closeReason == nil, let reason, reason != .linkClosed { closeReason = reason }
        finishPairing(.failure(reason ?? .linkClosed))
        let failure = reason ?? .linkClosed
        for id in Array(pending.keys) { finish(request: id, with: .failure(failure)) }
        eventSink.finish()
        endpoint.closeOutput()
        keepAliveTask?.cancel()
        watchdog?.cancel()
        watchdog = nil
    }

    private func shutdownAndWait(reason: ReaderLinkError?) async {
        shutdown(reason: reason)
        await endpoint.drained()
        pump?.cancel()
    }
}
