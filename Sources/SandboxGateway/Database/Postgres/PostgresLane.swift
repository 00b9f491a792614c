import Dispatch
import Logging
import PostgresNIO
import Synchronization

/// One connection and the serial queue that is the only place it is used.
///
/// The queue's thread blocks on each statement's answer; that is why the backend's work
/// runs here and not on Swift concurrency's threads (which must never block) nor on NIO's
/// event loops (which answer the statements). The connection opens on first use and opens
/// again after it was lost.
final class PostgresLane: Sendable {
    /// Where the lane's work runs.
    let queue: DispatchQueue
    private let settings: PostgresSettings
    private let logger: Logger
    /// The open session, if any; used on `queue` only, so its lock is never contended.
    private let current = Mutex<PostgresSession?>(nil)

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
        if let open = current.withLock({ $0 }), !open.isClosed { return open }
        close()
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: settings.configuration,
                id: settings.nextConnectionID(), logger: logger
            ).wait()
        } catch {
            throw PostgresEngineError.connectFailed(error)
        }
        let session = PostgresSession(
            connection: connection, logger: logger, preparedStatements: settings.preparedStatements)
        current.withLock { $0 = session }
        return session
    }

    /// Forgets the session after `error` when the error left its connection unusable.
    func discard(after error: any Error) {
        dispatchPrecondition(condition: .onQueue(queue))
        if let error = error as? PostgresEngineError, error.connectionLost { close() }
    }

    /// Ends the open transaction, if any, after a failure; forgets a lost connection.
    func rollback(after error: any Error) {
        dispatchPrecondition(condition: .onQueue(queue))
        discard(after: error)
        // The failure is already the caller's error; a connection that cannot roll back is closed by the server's end of the transaction.
        if let open = current.withLock({ $0 }) { _ = try? open.execute(sql: "ROLLBACK") }
    }

    /// Closes the connection. On `queue` only.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        current.withLock { current in
            defer { current = nil }
            return current
        }?.close()
    }
}
