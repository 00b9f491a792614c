/// How long the gateway waits on a client before it closes the connection, so that clients
/// that are slow on purpose (slowloris) or gone cannot hold connections open.
///
/// ```swift
/// var configuration = SandboxGatewayConfiguration(databasePath: "/tmp/sandbox.sqlite")
/// configuration.connectionTimeouts = GatewayConnectionTimeouts(idle: .seconds(30), requestHeader: .seconds(5))
/// ```
public struct GatewayConnectionTimeouts: Sendable, Hashable {
    /// How long a connection may stay open with no request on it: between keep-alive requests,
    /// or a request whose parts stopped arriving. 75 seconds by default, longer than the SDK's
    /// own 60-second pool idle time, so that a client closes an idle connection before the
    /// gateway does and never sends on one the gateway is closing.
    public var idle: Duration
    /// How long a request's head (request line and headers) may take to arrive in full,
    /// counted from its first byte, or from the connection's opening (with TLS: before the
    /// handshake) for the first request. 10 seconds by default.
    public var requestHeader: Duration
    /// How long a request's body may take to arrive in full, counted from the end of its head.
    /// 30 seconds by default.
    public var requestBody: Duration

    /// Timeouts with the defaults: idle 75 s, request head 10 s, request body 30 s.
    public init(
        idle: Duration = .seconds(75), requestHeader: Duration = .seconds(10),
        requestBody: Duration = .seconds(30)
    ) {
        self.idle = idle
        self.requestHeader = requestHeader
        self.requestBody = requestBody
    }
}
