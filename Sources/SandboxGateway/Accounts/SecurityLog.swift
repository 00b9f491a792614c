import Foundation
import GatewayAPI
import Logging

/// The gateway's append-only security log: each event is a row of `security_event` (read by
/// the merchant's administrators in the API and the dashboard) and a structured log line.
/// Nothing updates or deletes a row. Callers pass facts, never a password, token, code, key
/// or card number.
public struct SecurityLog: Sendable {
    let database: any GatewayDatabase
    let now: @Sendable () -> Date
    let logger: Logger

    init(database: any GatewayDatabase, now: @escaping @Sendable () -> Date, logLevel: Logger.Level) {
        self.database = database
        self.now = now
        var logger = Logger(label: "mposkit.sandbox-gateway.security")
        logger.logLevel = logLevel
        self.logger = logger
    }

    /// Records an event.
    public func record(
        _ kind: SecurityEvent.Kind, merchantID: String?, userID: String? = nil, address: String? = nil,
        detail: String
    ) async throws {
        let event = SecurityEvent(
            id: Secrets.newID(prefix: "sev_"), at: now(), kind: kind, userID: userID, address: address, detail: detail)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO security_event (id, at, merchant_id, kind, user_id, address, detail)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [event.id, event.at, merchantID, kind.rawValue, userID, address, detail])
        }
        note(kind, id: event.id, merchantID: merchantID, userID: userID, address: address, detail: detail)
    }

    /// Logs an event as a structured line only, without a row: for refusals that cost nothing
    /// (a throttled login), so that a flood of them is not a flood of writes.
    func note(
        _ kind: SecurityEvent.Kind, id: String = "-", merchantID: String? = nil, userID: String? = nil,
        address: String? = nil, detail: String = ""
    ) {
        logger.notice(
            "security event",
            metadata: [
                "event.kind": "\(kind.rawValue)", "event.id": "\(id)", "merchant.id": "\(merchantID ?? "-")",
                "user.id": "\(userID ?? "-")", "client.address": "\(address ?? "-")", "detail": "\(detail)",
            ])
    }

    /// The merchant's events, newest first (at most `limit`).
    public func events(merchantID: String, limit: Int = 200) async throws -> [SecurityEvent] {
        try await database.read { db in
            try db.fetchAll(
                sql: """
                    SELECT * FROM security_event WHERE merchant_id = ?
                    ORDER BY at DESC, \(db.dialect.rowOrder) DESC LIMIT ?
                    """,
                arguments: [merchantID, limit]
            ).compactMap { row in
                guard let kind = SecurityEvent.Kind(rawValue: row["kind"]) else { return nil }
                return SecurityEvent(
                    id: row["id"], at: row["at"], kind: kind, userID: row["user_id"], address: row["address"],
                    detail: row["detail"])
            }
        }
    }
}
