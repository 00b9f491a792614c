import MPOSCore
import Testing

@testable import ReaderLink

/// A test secret of 32 equal bytes.
func testSecret(_ byte: UInt8) -> SharedSecret {
    guard let secret = try? SharedSecret(bytes: [UInt8](repeating: byte, count: 32)) else {
        fatalError("32 bytes make a secret")
    }
    return secret
}
let secretA = testSecret(0xA1)
let secretB = testSecret(0xB2)

/// A paired SDK connection and reader session over an in-process link.
func makeLink(
    mtu: Int? = nil, sdkSecret: SharedSecret = secretA, readerSecret: SharedSecret = secretA
) async throws -> (ReaderConnection, ReaderDeviceSession) {
    let (sdkSide, readerSide) = InProcessTransport.makePair(maximumWriteLength: mtu)
    let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: readerSecret) }
    let sdk = try await ReaderConnection.open(transport: sdkSide, secret: sdkSecret)
    return (sdk, try await reader.value)
}

/// Answers every request with `answer(request)`, until the link closes.
func serve(_ reader: ReaderDeviceSession, _ answer: @escaping @Sendable (ReaderMessage) -> ReaderMessage)
    -> Task<Void, Never>
{
    Task {
        for await request in reader.requests {
            try? await reader.respond(to: request.id, with: answer(request.message))
        }
    }
}

/// What a man in the middle does to the frames flowing one way, counted from 0 (hello is
/// frame 0, the pairing proof frame 1, the first request frame 2).
enum Meddling: Sendable {
    case none
    case flipPayloadByte(frame: Int)
    case replay(frame: Int)
    case swap(frame: Int)
    case truncate(frame: Int)
    case cutBytes(frame: Int)
    case garbageBefore(frame: Int)
    case dropFrom(frame: Int)
}

/// Forwards bytes from `from` to `to`, frame by frame, meddling as told; closes `to` when
/// `from` finishes.
func relay(_ from: InProcessTransport, _ to: InProcessTransport, _ meddling: Meddling) -> Task<Void, Never> {
    Task {
        var decoder = FrameDecoder()
        var index = 0
        var held: [UInt8]?
        for await chunk in from.incoming {
            decoder.append(chunk)
            while let frame = try? decoder.nextFrame() {
                defer { index += 1 }
                var out = frame.encoded()
                switch meddling {
                case .flipPayloadByte(index):
                    var copy = frame
                    copy.payload[copy.payload.count / 2] ^= 0x20
                    out = copy.encoded()
                case .replay(index):
                    out += out
                case .swap(index):
                    held = out
                    continue
                case .swap(index - 1):
                    out += held ?? []
                case .truncate(index):
                    var copy = frame
                    copy.payload.removeLast(3)
                    out = copy.encoded()
                case .cutBytes(index):
                    out.removeLast(5)
                case .garbageBefore(index):
                    // Noise, a lone magic, and a header announcing 65 535 bytes: none may stall the link.
                    out =
                        [
                            0xA5, 0x00, 0x4C, 0xA5, 0x4C, 0x01, 0xEE, 0xA5, 0x4C, 0x01, 0x10, 0x00, 0x00,
                            0x00, 0xFF, 0xFF,
                        ] + out
                case .dropFrom(let first) where index >= first:
                    continue
                default:
                    break
                }
                try? to.send(out)
            }
        }
        await to.close()
    }
}

/// SDK ⇄ relay ⇄ reader, meddling with the frames going `toReader` or `toSDK`.
func makeRelayedLink(toReader: Meddling = .none, toSDK: Meddling = .none) async throws
    -> (ReaderConnection, ReaderDeviceSession, [Task<Void, Never>])
{
    let (sdkSide, relaySDK) = InProcessTransport.makePair()
    let (relayReader, readerSide) = InProcessTransport.makePair()
    let tasks = [relay(relaySDK, relayReader, toReader), relay(relayReader, relaySDK, toSDK)]
    let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
    let sdk = try await ReaderConnection.open(transport: sdkSide, secret: secretA)
    return (sdk, try await reader.value, tasks)
}

@Suite(.timeLimit(.minutes(2)))
struct PairingTests {
    @Test(arguments: [nil, 20] as [Int?])
    func pairsAndAgreesVersionOne(mtu: Int?) async throws {
        let (sdk, reader) = try await makeLink(mtu: mtu)
        #expect(await sdk.version == 1)
        #expect(await reader.version == 1)
        await sdk.close()
    }

    @Test func wrongSecretFailsOnBothSides() async throws {
        let (sdkSide, readerSide) = InProcessTransport.makePair(maximumWriteLength: 20)
        let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretB) }
        await #expect(throws: ReaderLinkError.sharedSecretInvalid) {
            try await ReaderConnection.open(transport: sdkSide, secret: secretA)
        }
        await #expect(throws: ReaderLinkError.sharedSecretInvalid) { try await reader.value }
    }

    @Test func negotiatesTheHighestCommonVersion() async throws {
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        let reader = Task {
            try await ReaderDeviceSession.accept(
                transport: readerSide, secret: secretA, versions: [1, 2, 3, 5])
        }
        let sdk = try await ReaderConnection.open(
            transport: sdkSide, secret: secretA, versions: [1, 2, 3, 4])
        #expect(await sdk.version == 3)
        #expect(try await reader.value.version == 3)
        await sdk.close()
    }

    @Test func refusesWithoutACommonVersion() async throws {
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        let reader = Task {
            try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA, versions: [2, 3])
        }
        await #expect(throws: ReaderLinkError.unsupportedVersion(3)) {
            try await ReaderConnection.open(transport: sdkSide, secret: secretA, versions: [1])
        }
        await #expect(throws: ReaderLinkError.unsupportedVersion(1)) { try await reader.value }
    }

    @Test func readerProcessesNoMessageBeforePairing() async throws {
        let (raw, readerSide) = InProcessTransport.makePair()
        let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
        try raw.send(
            Frame(type: .request, sequence: 0, payload: [0, 0, 0, 1] + ReaderMessage.getDeviceInfo.encoded())
                .encoded())
        var decoder = FrameDecoder()
        var answer: Frame?
        for await chunk in raw.incoming {
            decoder.append(chunk)
            if let frame = try decoder.nextFrame() {
                answer = frame
                break
            }
        }
        let frame = try #require(answer)
        #expect(frame.type == .error)
        let body = try LinkErrorBody(decoding: frame.payload)
        #expect(body.status == ReaderStatusCode.sharedSecretInvalid.rawValue)
        #expect(body.reason == .notPaired)
        await raw.close()
        await #expect(throws: ReaderLinkError.linkClosed) { try await reader.value }
    }

    @Test func readerAnswersMalformedAndUnknownFramesAndKeepsListening() async throws {
        let (raw, readerSide) = InProcessTransport.makePair(maximumWriteLength: 20)
        let reader = Task { try await ReaderDeviceSession.accept(transport: readerSide, secret: secretA) }
        var corrupted = Frame(type: .hello, sequence: 0, payload: [1, 1] + [UInt8](repeating: 7, count: 32))
            .encoded()
        corrupted[12] ^= 0xFF
        let unknown = Frame(type: FrameType(rawValue: 0x55), sequence: 1, payload: [1, 2, 3]).encoded()
        for bytes in [corrupted, unknown] {
            for start in stride(from: 0, to: bytes.count, by: 20) {
                try raw.send(Array(bytes[start..<min(start + 20, bytes.count)]))
            }
        }
        var decoder = FrameDecoder()
        var reasons: [LinkErrorReason] = []
        for await chunk in raw.incoming {
            decoder.append(chunk)
            while let frame = try decoder.nextFrame() {
                #expect(frame.type == .error)
                reasons.append(try LinkErrorBody(decoding: frame.payload).reason)
            }
            if reasons.count == 2 { break }
        }
        #expect(reasons == [.malformedFrame, .notPaired])
        await raw.close()
        await #expect(throws: ReaderLinkError.linkClosed) { try await reader.value }
    }

    @Test func sdkReportsNotPairedRefusalAsNotAllowed() async throws {
        // A reader that refuses everything as "not paired" (for example, another protocol state).
        let (sdkSide, raw) = InProcessTransport.makePair()
        let refuser = Task {
            for await _ in raw.incoming {
                let body = LinkErrorBody(status: 0x001D, reason: .notPaired, detail: "pair first")
                try? raw.send(Frame(type: .error, sequence: 0, payload: body.encoded()).encoded())
            }
        }
        await #expect(throws: ReaderLinkError.notAllowed(detail: "pair first")) {
            try await ReaderConnection.open(transport: sdkSide, secret: secretA)
        }
        await refuser.value
    }
}

@Suite(.timeLimit(.minutes(2)))
struct SessionTests {
    @Test(arguments: [nil, 20] as [Int?])
    func correlatesConcurrentRequestsAnsweredOutOfOrder(mtu: Int?) async throws {
        let (sdk, reader) = try await makeLink(mtu: mtu)
        let server = Task {
            var held: [IncomingRequest] = []
            for await request in reader.requests {
                held.append(request)
                if held.count == 3 {
                    for request in held.reversed() {
                        let answer: ReaderMessage =
                            switch request.message {
                            case .getBattery:
                                .battery(
                                    BatteryStatus(percentage: 50, isCharging: false, hasExternalPower: false))
                            case .fetchLogs: .logs(["a", "b"])
                            default: .ack
                            }
                        try? await reader.respond(to: request.id, with: answer)
                    }
                    held = []
                }
            }
        }
        async let battery = sdk.request(.getBattery)
        async let logs = sdk.request(.fetchLogs)
        async let ack = sdk.request(.resetLogs)
        #expect(
            try await battery
                == .battery(BatteryStatus(percentage: 50, isCharging: false, hasExternalPower: false)))
        #expect(try await logs == .logs(["a", "b"]))
        #expect(try await ack == .ack)
        await sdk.close()
        await server.value
    }

    @Test(arguments: [nil, 20] as [Int?])
    func carriesLargeMessagesBothWays(mtu: Int?) async throws {
        let (sdk, reader) = try await makeLink(mtu: mtu)
        let image = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = serve(reader) { request in
            guard case .updateChunk(let offset, let bytes) = request else {
                return .error(.invalidData, detail: "x")
            }
            return .updateChunk(offset: offset + UInt32(bytes.count), bytes: bytes.reversed())
        }
        let answer = try await sdk.request(.updateChunk(offset: 10, bytes: image))
        #expect(answer == .updateChunk(offset: 20_010, bytes: image.reversed()))
        await sdk.close()
        await server.value
    }

    @Test(arguments: [nil, 20] as [Int?])
    func deliversEventsInOrder(mtu: Int?) async throws {
        let (sdk, reader) = try await makeLink(mtu: mtu)
        let events: [ReaderMessage] = ReaderMessage.Kind.allCases.map(sample)
        for event in events { try await reader.emit(event) }
        var received: [ReaderMessage] = []
        for await event in sdk.events {
            received.append(event)
            if received.count == events.count { break }
        }
        #expect(received == events)
        await reader.close()
    }

    @Test func readerAnswersPingItselfAndErrorsThrowRejected() async throws {
        let (sdk, reader) = try await makeLink()
        let server = serve(reader) { _ in .error(.transactionNotAllowed, detail: "busy") }
        #expect(try await sdk.request(.ping) == .pong)
        await #expect(throws: ReaderLinkError.rejected(.transactionNotAllowed, detail: "busy")) {
            try await sdk.request(.cancelRequest(transactionID: nil))
        }
        await sdk.close()
        await server.value
    }

    @Test func respondingTwiceOrToAnUnknownIdIsNotAllowed() async throws {
        let (sdk, reader) = try await makeLink()
        async let answer = sdk.request(.getDeviceInfo)
        var iterator = reader.requests.makeAsyncIterator()
        let request = try #require(await iterator.next())
        try await reader.respond(to: request.id, with: .ack)
        #expect(try await answer == .ack)
        await #expect(throws: ReaderLinkError.self) { try await reader.respond(to: request.id, with: .ack) }
        await #expect(throws: ReaderLinkError.self) { try await reader.respond(to: 999, with: .ack) }
        await sdk.close()
    }

    @Test func closingFailsPendingRequestsWithLinkClosed() async throws {
        let (sdk, reader) = try await makeLink(mtu: 20)
        let answer = Task { try await sdk.request(.getDeviceInfo) }
        var iterator = reader.requests.makeAsyncIterator()
        _ = try #require(await iterator.next())  // the request arrived and will never be answered
        await reader.close()
        await #expect(throws: ReaderLinkError.linkClosed) { try await answer.value }
        await #expect(throws: ReaderLinkError.linkClosed) { try await sdk.request(.ping) }
        #expect(await sdk.closeReason == nil)
        await #expect(throws: ReaderLinkError.linkClosed) { try await reader.emit(.ack) }
    }

    @Test func sdkCloseFinishesTheReadersRequests() async throws {
        let (sdk, reader) = try await makeLink()
        await sdk.close()
        for await _ in reader.requests { Issue.record("no request was sent") }
        for await _ in sdk.events { Issue.record("no event was sent") }
    }

    /// Frame 0 is the hello (garbage before pairing), frame 2 the first request.
    @Test(arguments: [0, 2])
    func garbageOnTheLinkIsSkippedAndAnswered(frame: Int) async throws {
        let (sdk, reader, tasks) = try await makeRelayedLink(toReader: .garbageBefore(frame: frame))
        let server = serve(reader) { _ in .ack }
        #expect(try await sdk.request(.resetLogs) == .ack)
        #expect(try await sdk.request(.resetLogs) == .ack)
        await sdk.close()
        await server.value
        for task in tasks { await task.value }
    }
}

@Suite(.timeLimit(.minutes(2)))
struct IntegrityTests {
    func expectIntegrityFailure(toReader: Meddling = .none, toSDK: Meddling = .none, requests: Int = 1)
        async throws
    {
        let (sdk, reader, tasks) = try await makeRelayedLink(toReader: toReader, toSDK: toSDK)
        let server = serve(reader) { _ in .ack }
        var failures: [ReaderLinkError] = []
        await withTaskGroup(of: ReaderLinkError?.self) { group in
            for _ in 0..<requests {
                group.addTask {
                    do throws(ReaderLinkError) {
                        _ = try await sdk.request(.resetLogs)
                        return nil
                    } catch { return error }
                }
            }
            for await failure in group { if let failure { failures.append(failure) } }
        }
        #expect(!failures.isEmpty)
        #expect(failures.contains { if case .integrity = $0 { true } else { false } })
        let readerReason = await reader.closeReason
        let sdkReason = await sdk.closeReason
        if case .none = toSDK {
            guard case .integrity = readerReason else {
                Issue.record("reader closed for \(String(describing: readerReason))")
                return
            }
        } else {
            guard case .integrity = sdkReason else {
                Issue.record("SDK closed for \(String(describing: sdkReason))")
                return
            }
        }
        await #expect(throws: ReaderLinkError.self) { try await sdk.request(.ping) }
        await server.value
        for task in tasks { await task.value }
    }

    @Test func tamperedFrameClosesTheSession() async throws {
        try await expectIntegrityFailure(toReader: .flipPayloadByte(frame: 2))
    }

    @Test func tamperedResponseClosesTheSession() async throws {
        try await expectIntegrityFailure(toSDK: .flipPayloadByte(frame: 2))
    }

    @Test func replayedFrameClosesTheSession() async throws {
        try await expectIntegrityFailure(toReader: .replay(frame: 2))
    }

    @Test func reorderedFramesCloseTheSession() async throws {
        try await expectIntegrityFailure(toReader: .swap(frame: 2), requests: 2)
    }

    @Test func truncatedFrameClosesTheSession() async throws {
        try await expectIntegrityFailure(toReader: .truncate(frame: 2))
    }

    @Test func lostBytesCloseTheSession() async throws {
        try await expectIntegrityFailure(toReader: .cutBytes(frame: 2), requests: 2)
    }
}
