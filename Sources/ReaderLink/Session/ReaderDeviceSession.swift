import MPOSCore

/// A request received by the reader side, to be answered with
/// ``ReaderDeviceSession/respond(to:with:)``.
public struct IncomingRequest: Sendable, Hashable {
    /// The request id the response must carry.
    public let id: UInt32
    /// The request.
    public let message: ReaderMessage

    /// Creates a request record.
    public init(id: UInt32, message: ReaderMessage) {
        self.id = id
        self.message = message
    }
}

/// The reader's end of a link (the simulator, or a vendor's firmware written in Swift): accepts
/// pairing, then delivers requests and sends responses and events.
///
/// Before pairing succeeds no message is processed: a message frame is answered with an error
/// frame of status ``ReaderStatusCode/sharedSecretInvalid`` (0x001D), reason `notPaired`.
/// `ping` requests are answered with `pong` here and never reach ``requests``.
public actor ReaderDeviceSession {
    /// Requests from the SDK, in arrival order. Finishes when the link closes.
    public nonisolated let requests: AsyncStream<IncomingRequest>
    private let requestSink: AsyncStream<IncomingRequest>.Continuation
    /// The protocol version agreed during pairing.
    public private(set) var version: UInt8 = 0
    /// Why the link closed: nil while open or after a plain `close()`.
    public private(set) var closeReason: ReaderLinkError?
    /// How long since the last bytes came from the SDK, on the clock given to `accept`; zero
    /// while one of its requests awaits the reader's answer (an SDK waiting for a long
    /// operation is quiet but alive). A live SDK's keep-alive speaks at least every 30 s; a
    /// longer silence means its end vanished without closing the link (see
    /// ``ReaderLinkProtocol/idleLinkLimit``).
    public var silence: Duration { unanswered.isEmpty ? linkClock.elapsed() - lastHeard : .zero }
    /// Whether the link has closed (the SDK closed it, it failed, or ``close()``), which may be
    /// known before ``requests`` has been read to its end.
    public var isClosed: Bool { if case .closed = state { true } else { false } }

    private enum State {
        case awaitingHello
        case awaitingProof(offered: [UInt8], chosen: UInt8, sdkNonce: [UInt8], deviceNonce: [UInt8])
        /// The SDK's proof verified; the reader decides whether it takes this SDK.
        case admitting(chosen: UInt8, channel: SecureChannel)
        case open
        case closed
    }

    private let secret: SharedSecret
    private let versions: [UInt8]
    private var endpoint: LinkEndpoint
    private var state: State = .awaitingHello
    private var unanswered: Set<UInt32> = []
    private var pump: Task<Void, Never>?
    private let linkClock: LinkClock
    private var lastHeard: Duration = .zero

    private init(
        transport: any ReaderTransport, secret: SharedSecret, versions: [UInt8], clock: any Clock<Duration>
    ) {
        self.secret = secret
        self.versions = versions
        self.linkClock = LinkClock(clock)
        (requests, requestSink) = AsyncStream.makeStream(of: IncomingRequest.self)
        endpoint = LinkEndpoint(transport: transport)
    }

    /// Waits for the SDK's hello on `transport`, agrees the highest common version among
    /// `versions`, and completes pairing with `secret`.
    ///
    /// - Parameters:
    ///   - clock: the clock ``silence`` is measured on (a manual clock in tests).
    ///   - admission: asked once the SDK has proved it holds the secret, before the session
    ///     opens: a reader that serves another SDK answers ``PairingAdmission/inUse(by:)``,
    ///     and this SDK is refused with a `readerInUse` error frame.
    /// - Throws: `.unsupportedVersion` (the SDK's highest) without a common version,
    ///   `.sharedSecretInvalid` when the SDK's proof does not verify or the SDK refuses ours,
    ///   `.readerInUse` when `admission` refused it, `.linkClosed` when the link goes away
    ///   first. The transport is closed on failure.
    public static func accept(
        transport: any ReaderTransport, secret: SharedSecret, versions: [UInt8] = [ReaderLinkProtocol.version],
        clock: any Clock<Duration> = ContinuousClock(),
        admission: @Sendable () async -> PairingAdmission = { .admit }
    ) async throws(ReaderLinkError) -> ReaderDeviceSession {
        let session = ReaderDeviceSession(transport: transport, secret: secret, versions: versions, clock: clock)
        var result = await session.start()
        if case .success = result { result = await session.admit(admission()) }
        switch result {
        case .success: return session
        case .failure(let error):
            await session.shutdownAndWait(reason: error)
            throw error
        }
    }

    /// Answers the request with id `id`. Throws `.notAllowed` for an id that is not waiting
    /// for an answer, `.linkClosed` once the link is gone.
    public func respond(to id: UInt32, with message: ReaderMessage) async throws(ReaderLinkError) {
        guard case .open = state else { throw closeReason ?? .linkClosed }
        guard unanswered.remove(id) != nil else {
            throw .notAllowed(detail: "request \(id) is not awaiting an answer")
        }
        send(type: .response, data: id.bigEndianBytes + message.encoded())
        guard case .open = state else { throw closeReason ?? .linkClosed }
    }

    /// Sends an unsolicited message (status report, card event, authorization request …).
    public func emit(_ event: ReaderMessage) async throws(ReaderLinkError) {
        try await emit([event])
    }

    /// Sends unsolicited messages, in order, in one write where the transport allows: a reader
    /// that produced several events at once (statuses, PIN digits, the authorization request)
    /// hands them over together.
    public func emit(_ events: [ReaderMessage]) async throws(ReaderLinkError) {
        guard case .open = state else { throw closeReason ?? .linkClosed }
        if !endpoint.send(batch: events.map { (type: .event, data: $0.encoded()) }) { shutdown(reason: .linkClosed) }
        guard case .open = state else { throw closeReason ?? .linkClosed }
    }

    /// Closes the link; `requests` finishes.
    public func close() async {
        await shutdownAndWait(reason: nil)
    }

    // MARK: - Internals

    private func start() async -> Result<Void, ReaderLinkError> {
        // Unstructured: the pump reads for the link's whole life; shutdown cancels it.
        pump = Task { await self.pumpIncoming() }
        return await withCheckedContinuation { endpoint.awaitPairing($0) }
    }

    /// Reads the transport on this actor's executor (a ping is answered without a task
    /// switch); ends the session when the link closes.
    private func pumpIncoming() async {
        for await chunk in endpoint.transport.incoming { receive(chunk) }
        await shutdownAndWait(reason: .linkClosed)
    }

    private func finishPairing(_ result: Result<Void, ReaderLinkError>) {
        endpoint.finishPairing(result)
    }

    /// Opens the session the SDK proved itself for, or refuses it while another SDK holds
    /// the reader. The refusal goes out plain, as a refused proof does, since the SDK only
    /// switches to the session keys' frames with `paired`.
    private func admit(_ decision: PairingAdmission) -> Result<Void, ReaderLinkError> {
        guard case .admitting(let chosen, let channel) = state else { return .failure(closeReason ?? .linkClosed) }
        switch decision {
        case .admit:
            endpoint.wire.secure(with: channel)
            version = chosen
            state = .open
            send(type: .paired, data: [])
            guard case .open = state else { return .failure(closeReason ?? .linkClosed) }
            return .success(())
        case .inUse(let holder):
            sendError(.commandNotAllowed, .readerInUse, holder)
            return .failure(.readerInUse(by: holder))
        }
    }

    private func send(type: FrameType, data: [UInt8]) {
        if !endpoint.send(type: type, data: data) { shutdown(reason: .linkClosed) }
    }

    private func sendError(
        _ status: ReaderStatusCode, _ reason: LinkErrorReason, _ detail: String, versions: [UInt8] = []
    ) {
        send(
            type: .error,
            data: LinkErrorBody(status: status.rawValue, reason: reason, versions: versions, detail: detail)
                .encoded())
    }

    private func receive(_ chunk: [UInt8]) {
        lastHeard = linkClock.elapsed()
        for inbound in endpoint.wire.receive(chunk) {
            if case .closed = state { return }
            switch inbound {
            case .badFrame(let error):
                sendError(.invalidData, .malformedFrame, ReaderConnection.detail(of: error))
            case .integrity(let error):
                sendError(.processingError, .integrity, ReaderConnection.detail(of: error))
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
            switch (state, body.reason) {
            case (.awaitingProof, .sharedSecretInvalid):
                shutdown(reason: .sharedSecretInvalid)
            case (.open, .integrity):
                shutdown(reason: .integrity(detail: "the SDK rejected a frame: \(body.detail)"))
            default:
                break
            }
            return
        }
        switch (state, message.type) {
        case (.awaitingHello, .hello):
            handleHello(message.data)
        case (.awaitingProof(let offered, let chosen, let sdkNonce, let deviceNonce), .pairProof):
            let expected = PairingCrypto.proof(
                role: "sdk", secret: secret, offered: offered, chosen: chosen, sdkNonce: sdkNonce,
                deviceNonce: deviceNonce)
            guard PairingCrypto.constantTimeEqual(expected, message.data) else {
                sendError(.sharedSecretInvalid, .sharedSecretInvalid, "pairing proof did not verify")
                shutdown(reason: .sharedSecretInvalid)
                return
            }
            let keys = PairingCrypto.sessionKeys(secret: secret, sdkNonce: sdkNonce, deviceNonce: deviceNonce)
            state = .admitting(
                chosen: chosen, channel: SecureChannel(sendKey: keys.deviceToSDK, receiveKey: keys.sdkToDevice))
            finishPairing(.success(()))
        case (.open, .request):
            guard let id = UInt32(bigEndianPrefixOf: message.data) else {
                sendError(.invalidData, .malformedFrame, "request without a request id")
                return
            }
            let request: ReaderMessage
            do {
                request = try ReaderMessage(decoding: message.data.dropFirst(4))
            } catch {
                send(
                    type: .response,
                    data: id.bigEndianBytes
                        + ReaderMessage.error(.invalidData, detail: ReaderConnection.detail(of: error))
                        .encoded())
                return
            }
            if request == .ping {
                send(type: .response, data: id.bigEndianBytes + ReaderMessage.pong.encoded())
                return
            }
            unanswered.insert(id)
            requestSink.yield(IncomingRequest(id: id, message: request))
        case (.open, _):
            sendError(
                .commandNotAllowed, .unknownFrameType, "frame type \(message.type) not accepted by the reader"
            )
        case (.awaitingHello, _), (.awaitingProof, _), (.admitting, _):
            sendError(.sharedSecretInvalid, .notPaired, "pair before sending messages")
        case (.closed, _):
            break
        }
    }

    private func handleHello(_ data: [UInt8]) {
        guard let count = data.first, count > 0, data.count == 1 + Int(count) + PairingCrypto.nonceLength
        else {
            sendError(.invalidData, .malformedFrame, "malformed hello")
            return
        }
        let offered = Array(data[1...Int(count)])
        let sdkNonce = Array(data[(1 + Int(count))...])
        guard let chosen = Set(offered).intersection(versions).max() else {
            sendError(
                .commandNotAllowed, .unsupportedVersion, "no common protocol version",
                versions: Array(Set(versions)).sorted().suffix(255))
            shutdown(reason: .unsupportedVersion(offered.max() ?? 0))
            return
        }
        let deviceNonce = PairingCrypto.nonce()
        let proof = PairingCrypto.proof(
            role: "reader", secret: secret, offered: offered, chosen: chosen, sdkNonce: sdkNonce,
            deviceNonce: deviceNonce)
        send(type: .helloReply, data: [chosen] + deviceNonce + proof)
        state = .awaitingProof(offered: offered, chosen: chosen, sdkNonce: sdkNonce, deviceNonce: deviceNonce)
    }

    private func shutdown(reason: ReaderLinkError?) {
        if case .closed = state { return }
        state = .closed
        if closeReason == nil, let reason, reason != .linkClosed { closeReason = reason }
        finishPairing(.failure(reason ?? .linkClosed))
        unanswered.removeAll()
        requestSink.finish()
        endpoint.closeOutput()
    }

    private func shutdownAndWait(reason: ReaderLinkError?) async {
        shutdown(reason: reason)
        await endpoint.drained()
        pump?.cancel()
    }
}
