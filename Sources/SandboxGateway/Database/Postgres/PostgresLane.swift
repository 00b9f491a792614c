import Dispatch
import Logging
import PostgresNIO

/// One connection and the serial queue that is the only place it is used.
///
/// The queue's thread blocks on each statement's answer; that is why the backend's work
/// runs here and not on Swift concurrency's threads (which must never block) nor on NIO's
/// event loops (which answer the statements). The connection opens on first use and opens
/// again after it was lost.
final class PostgresLane: @unchecked Sendable {
    // @unchecked: `session` is read and written only on `queue`.

    /// Where the lane's work runs.
    let queue: DispatchQueue
    private let settings: PostgresSettings
    private let logger: Logger
    private var current: PostgresSession?

    init(label: String, settings: PostgresSettings, logger: Logger) {
        queue = DispatchQueue(label: label)
        self.settings = settings
        self.logger = logger
    }

    /// The lane's session, connecting first when there is none or it was lost. On `queue` only.
    ///
    /// - Throws: ``PostgresEngineError`` when the server cannot be reached.
    func session() throws -> PostgresSession {
        dispatchPrecondition(condition: .onQueue(queue))
        if let current, !current.isClosed { return current }
        current?.close()
        current = nil
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: settings.configuration,
                id: settings.nextConnectionID(), logger: logger
            ).wait()
        } catch {
            throw PostgresEngineError.connectFailed(error)
        }
        let session = PostgresSession(connection: connection, logger: logger)
        current = session
        return session
    }

    /// Forgets the session after `error` when the error left its connection unusable.
    func discard(after error: any Error) {
        dispatchPrecondition(condition: .onQueue(queue))
        if let error = error as? PostgresEngineError, error.connectionLost {
            current?.close()
            current = nil
        }
    }

    /// Ends the open transaction, if any, after a failure; forgets a lost connection.
    func rollback(after error: any Error) {
        dispatchPrecondition(condition: .onQueue(queue))
        discard(after: error)
        if let current { _ = try? current.execute(sql: "ROLLBACK") }
    }

    /// Closes the connection. On `queue` only.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        current?.close()
        current = nil
    }
}
