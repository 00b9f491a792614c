/// The idle keep-alive connections of a transport, per origin, as a pure value: the transport
/// keeps it behind a lock and does the I/O (connecting, closing) that its answers call for.
struct IdleConnectionPool<Origin: Hashable, Connection> {
    /// How many idle connections one origin keeps; more are closed when they come back.
    let limitPerOrigin: Int
    private var idle: [Origin: [Connection]] = [:]
    /// Set by ``shutDown()``: nothing is kept any more.
    private(set) var isShutDown = false

    init(limitPerOrigin: Int) {
        self.limitPerOrigin = max(0, limitPerOrigin)
    }

    /// How many idle connections the pool holds (for every origin).
    var count: Int { idle.values.reduce(0) { $0 + $1.count } }

    /// Takes the most recently used idle connection to `origin` that `isUsable` accepts.
    /// Connections it rejects (closed by the peer while idle) are dropped and returned in
    /// `stale`, for the caller to close.
    mutating func checkOut(_ origin: Origin, isUsable: (Connection) -> Bool) -> (Connection?, stale: [Connection]) {
        var stale: [Connection] = []
        while let candidate = idle[origin]?.popLast() {
            if isUsable(candidate) { return (candidate, stale) }
            stale.append(candidate)
        }
        return (nil, stale)
    }

    /// Offers `connection` back after a complete exchange. Returns false when the pool does
    /// not keep it (shut down, or the origin's limit is reached): the caller closes it.
    mutating func checkIn(_ connection: Connection, for origin: Origin) -> Bool {
        guard !isShutDown, idle[origin, default: []].count < limitPerOrigin else { return false }
        idle[origin, default: []].append(connection)
        return true
    }

    /// Keeps nothing from now on and hands back every idle connection to close.
    mutating func shutDown() -> [Connection] {
        isShutDown = true
        let all = idle.values.flatMap { $0 }
        idle = [:]
        return all
    }
}
