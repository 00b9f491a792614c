import Foundation
import GRDB

/// A merchant user's browser session on the dashboard.
public struct DashboardSession: Sendable, Hashable {
    /// The merchant every page and form is scoped to.
    public var merchantID: String
    /// The user who logged in.
    public var userID: String
    /// The per-session token every form must echo back.
    public var csrfToken: String
}

/// Dashboard sessions and one-time login links in the gateway's database. Only SHA-256
/// hashes of the cookie and link tokens are stored, so a copy of the database opens no session.
public struct DashboardSessions: Sendable {
    /// How long a browser session lasts after login at most, however busy.
    public static let lifetime: TimeInterval = 8 * 3600
    /// How long a one-time login link can be used.
    public static let linkLifetime: TimeInterval = 5 * 60

    let database: any GatewayDatabase
    let now: @Sendable () -> Date
    /// How long a session lives without a page or form (15 minutes: PCI DSS 8.2.8); each use
    /// moves its end forward, up to ``lifetime`` after login.
    var idleTimeout: TimeInterval = 15 * 60

    /// Opens a session for `userID` of `merchantID`; returns the cookie token and the session.
    public func open(merchantID: String, userID: String) async throws -> (token: String, session: DashboardSession) {
        let token = Secrets.newToken(prefix: "ds_")
        let session = DashboardSession(
            merchantID: merchantID, userID: userID, csrfToken: Secrets.newToken(prefix: "csrf_"))
        let now = now()
        try await database.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE expires_at <= ?", arguments: [now])
            try db.execute(
                sql: """
                    INSERT INTO dashboard_session (token_hash, merchant_id, user_id, csrf_token, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Secrets.sha256Hex(token), merchantID, userID, session.csrfToken, now,
                    now.addingTimeInterval(min(idleTimeout, Self.lifetime)),
                ])
        }
        return (token, session)
    }

    /// The live session of the cookie token `token`, or `nil` when unknown, idle for longer
    /// than ``idleTimeout`` or older than ``lifetime``. A use moves the idle end forward
    /// (written at most once a minute).
    public func resolve(_ token: String) async throws -> DashboardSession? {
        let now = now()
        let hash = Secrets.sha256Hex(token)
        let found = try await database.read { db in
            try db.fetchOne(
                sql: """
                    SELECT merchant_id, user_id, csrf_token, created_at, expires_at FROM dashboard_session
                    WHERE token_hash = ? AND expires_at > ?
                    """,
                arguments: [hash, now]
            ).map { row in
                (session: DashboardSession(merchantID: row["merchant_id"], userID: row["user_id"], csrfToken: row["csrf_token"]),
                 createdAt: row["created_at"] as Date, expiresAt: row["expires_at"] as Date)
            }
        }
        guard let found else { return nil }
        let slid = min(now.addingTimeInterval(idleTimeout), found.createdAt.addingTimeInterval(Self.lifetime))
        if slid.timeIntervalSince(found.expiresAt) > 60 {
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE dashboard_session SET expires_at = ? WHERE token_hash = ?", arguments: [slid, hash])
            }
        }
        return found.session
    }

    /// Ends the session of `token`.
    public func close(_ token: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM dashboard_session WHERE token_hash = ?", arguments: [Secrets.sha256Hex(token)])
        }
    }

    /// Issues a single-use login link token for `userID` of `merchantID`, valid for ``linkLifetime``.
    public func issueLink(merchantID: String, userID: String) async throws -> (token: String, expiresAt: Date) {
        let token = Secrets.newToken(prefix: "dl_")
        let expiresAt = now().addingTimeInterval(Self.linkLifetime)
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO dashboard_login_link (token_hash, merchant_id, user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [Secrets.sha256Hex(token), merchantID, userID, expiresAt])
        }
        return (token, expiresAt)
    }

    /// Uses a login link: marks it used and returns whose it was, or `nil` when it is unknown,
    /// expired or already used (in one write, so two concurrent uses cannot both succeed).
    public func redeemLink(_ token: String) async throws -> (merchantID: String, userID: String)? {
        let now = now()
        return try await database.write { db in
            let hash = Secrets.sha256Hex(token)
            guard
                let row = try db.fetchOne(sql: """
                        SELECT merchant_id, user_id FROM dashboard_login_link
                        WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
                        """,
                    arguments: [hash, now])
            else { return nil }
            try db.execute(sql: "UPDATE dashboard_login_link SET used_at = ? WHERE token_hash = ?", arguments: [now, hash])
            return (row["merchant_id"], row["user_id"])
        }
    }
}
