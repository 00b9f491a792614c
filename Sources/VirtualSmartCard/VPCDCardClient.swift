import ReaderLink
import ReaderLinkTCP
import ReaderSimulator

/// Puts a card into a vpcd reader: connects to vpcd's port and answers what it sends until the
/// card is pulled out or vpcd closes the connection.
///
/// ```swift
/// let client = VPCDCardClient(slot: VirtualCardSlot(card: responder), delay: .milliseconds(300))
/// let end = try await client.run(host: "127.0.0.1", port: 35963)
/// ```
public struct VPCDCardClient: Sendable {
    /// How the connection ended.
    public enum End: Sendable, Hashable {
        /// vpcd closed the connection (pcscd stopped).
        case closedByReader
        /// The card was pulled out after its last answer.
        case pulledOut
    }

    /// The slot the card sits in.
    public let slot: VirtualCardSlot
    /// How long the card takes before each answer to an APDU (a slow card); zero for none.
    public let delay: Duration
    /// The clock the delay runs on (a manual clock in tests).
    public let clock: any Clock<Duration>

    /// A client for `slot`.
    public init(
        slot: VirtualCardSlot, delay: Duration = .zero, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.slot = slot
        self.delay = delay
        self.clock = clock
    }

    /// Connects to vpcd at `host:port` and serves the card.
    /// - Throws: ``ReaderLinkError`` when vpcd does not accept the connection; `CancellationError`
    ///   when the task is cancelled during a slow answer.
    public func run(host: String, port: Int) async throws -> End {
        let transport = try await TCPTransport.connect(host: host, port: port)
        defer { Task { await transport.close() } }
        return try await serve(transport)
    }

    /// Serves the card over a connection already open.
    public func serve(_ transport: TCPTransport) async throws -> End {
        var slot = self.slot
        var frames = VPCDFrames()
        for await chunk in transport.incoming {
            for message in frames.append(chunk) {
                let reply = slot.receive(message)
                if message.count > 1, delay > .zero { try await clock.sleep(for: delay) }
                switch reply {
                case .none: continue
                case .pulledOut:
                    await transport.close()
                    return .pulledOut
                case .answer(let bytes):
                    do {
                        try transport.send(VPCDFrames.frame(bytes))
                    } catch {
                        return .closedByReader
                    }
                }
            }
            if !slot.card.isPresent {
                await transport.close()
                return .pulledOut
            }
        }
        return .closedByReader
    }
}
