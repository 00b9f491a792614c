import ReaderLink
import Synchronization

/// What a physical link between SDK and reader allows: its rate, its largest write and its
/// one-way delay (Bluetooth LE: a few kB/s to tens of kB/s, 20 to 244 bytes a packet, a
/// connection interval of 7.5 to 50 ms per exchange).
public struct LinkProfile: Sendable, Hashable {
    /// Bytes per second in each direction, or nil for no limit.
    public var bytesPerSecond: Int?
    /// The largest piece the link carries at once, or nil for no limit.
    public var mtu: Int?
    /// The time a piece takes to arrive once sent, in each direction.
    public var oneWayDelay: Duration

    /// A link with the given limits.
    public init(bytesPerSecond: Int? = nil, mtu: Int? = nil, oneWayDelay: Duration = .zero) {
        self.bytesPerSecond = bytesPerSecond
        self.mtu = mtu
        self.oneWayDelay = oneWayDelay
    }

    /// No limits: the transport is passed through untouched.
    public static let unlimited = LinkProfile()

    /// Whether the profile limits anything.
    public var isUnlimited: Bool { bytesPerSecond == nil && mtu == nil && oneWayDelay == .zero }

    /// How long `count` bytes occupy the link.
    func transmitTime(_ count: Int) -> Duration {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return .zero }
        return .nanoseconds(Int64(count) * 1_000_000_000 / Int64(bytesPerSecond))
    }
}

/// The reader's side of a link made as slow as `LinkProfile` says, in both directions: bytes
/// are cut into MTU-sized pieces, each occupies the link for its transmit time (pieces queue
/// behind each other) and arrives a one-way delay later. Delays overlap, as on a real link;
/// only the rate limits throughput. Runs on the wall clock, as a radio does.
final class ShapedTransport: ReaderTransport {
    private let base: any ReaderTransport
    private let profile: LinkProfile
    private let outgoing: Pacer
    let incoming: AsyncStream<[UInt8]>

    init(_ base: any ReaderTransport, profile: LinkProfile) {
        self.base = base
        self.profile = profile
        let (incoming, deliver) = AsyncStream.makeStream(of: [UInt8].self)
        self.incoming = incoming
        let arriving = Pacer(profile: profile) { piece in deliver.yield(piece) } onFinish: { deliver.finish() }
        outgoing = Pacer(profile: profile) { piece in try? base.send(piece) } onFinish: {}
        // Unstructured: the peer's bytes are paced for as long as the link lives; it ends with `base.incoming`.
        Task {
            for await chunk in base.incoming { arriving.enqueue(chunk) }
            arriving.finish()
        }
    }

    var maximumWriteLength: Int? { profile.mtu ?? base.maximumWriteLength }
    var peerName: String? { base.peerName }

    func send(_ bytes: [UInt8]) throws(ReaderLinkError) {
        guard !outgoing.isFinished else { throw .linkClosed }
        outgoing.enqueue(bytes)
    }

    func close() async {
        outgoing.finish()
        await base.close()
    }
}

/// Paces pieces through one direction of a shaped link: each is handed on once it has crossed.
private final class Pacer: Sendable {
    private struct State {
        var busyUntil = ContinuousClock.now
        var finished = false
    }

    private let profile: LinkProfile
    private let state = Mutex(State())
    private let queue: AsyncStream<(piece: [UInt8], arrival: ContinuousClock.Instant)>.Continuation

    init(
        profile: LinkProfile, deliver: @escaping @Sendable ([UInt8]) -> Void,
        onFinish: @escaping @Sendable () -> Void
    ) {
        self.profile = profile
        let (pieces, queue) = AsyncStream.makeStream(of: (piece: [UInt8], arrival: ContinuousClock.Instant).self)
        self.queue = queue
        // Unstructured: pieces arrive on the link's own schedule while the sender goes on; it ends with `finish()`.
        Task {
            for await (piece, arrival) in pieces {
                try? await ContinuousClock().sleep(until: arrival)
                deliver(piece)
            }
            onFinish()
        }
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Schedules `bytes`, cut to the MTU, behind what the link already carries.
    func enqueue(_ bytes: [UInt8]) {
        let size = max(1, profile.mtu ?? bytes.count)
        var start = 0
        while start < bytes.count {
            let piece = Array(bytes[start..<min(start + size, bytes.count)])
            start += piece.count
            let arrival: ContinuousClock.Instant? = state.withLock { state in
                guard !state.finished else { return nil }
                state.busyUntil = max(state.busyUntil, .now) + profile.transmitTime(piece.count)
                return state.busyUntil + profile.oneWayDelay
            }
            guard let arrival else { return }
            queue.yield((piece, arrival))
        }
    }

    func finish() {
        state.withLock { $0.finished = true }
        queue.finish()
    }
}
