import PostgresNIO
import Synchronization

/// How the backend's connections are opened: PostgresNIO's configuration for a
/// ``PostgresURL``, how many statements each prepares, and the ids of the connections (for
/// PostgresNIO's logs).
final class PostgresSettings: Sendable {
    let configuration: PostgresConnection.Configuration
    /// How many named prepared statements each connection keeps (0: none).
    let preparedStatements: Int
    private let ids = Atomic<Int>(0)

    /// Settings for `url`, without TLS (the sandbox's database sits beside it), that keep
    /// `synchronous_commit` on whatever the server's default, so that every commit the
    /// gateway answers is on disk.
    init(url: PostgresURL, connectTimeout: TimeAmount = .seconds(10), preparedStatements: Int = 0) {
        self.preparedStatements = max(0, preparedStatements)
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: .disable)
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = [
            ("application_name", "mpos-gateway"), ("synchronous_commit", "on"),
        ]
        self.configuration = configuration
    }

    /// A new connection id.
    func nextConnectionID() -> Int { ids.add(1, ordering: .relaxed).newValue }
}
