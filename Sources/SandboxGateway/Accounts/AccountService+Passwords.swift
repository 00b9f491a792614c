import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// How long a password-reset code can be redeemed: 30 minutes.
    public static let passwordResetCodeLifetime: TimeInterval = 30 * 60

    /// Mails `user` a one-time code that sets a new password, and changes nothing else: the
    /// password, the sessions and a lockout stay as they were until the code is redeemed
    /// (``confirmPasswordReset(_:)``), so a stranger who asks cannot lock anyone out. The code
    /// is stored as its SHA-256 only, works once, expires after
    /// ``passwordResetCodeLifetime``, and a newer request replaces it. Nothing happens for an
    /// unknown user, and the caller cannot tell.
    public func requestPasswordReset(user: String, address: String? = nil) async throws {
        let now = self.now
        guard let row = try await store.database.read({ db in
            try db.fetchOne(sql: "SELECT merchantId, email FROM \"user\" WHERE id = ?", arguments: [user]).map { row in
                (merchantID: row["merchantId"] as String, email: row["email"] as String)
            }
        }) else { return }
        let code = Secrets.newToken(prefix: "pr_")
        let expiresAt = now.addingTimeInterval(Self.passwordResetCodeLifetime)
        let message = OutboxMessage(
            id: Secrets.newID(prefix: "msg_"), channel: .email, recipient: row.email,
            subject: "Reset your MPOSKit sandbox password",
            body: """
                Someone asked to reset the password of the user \(user).
                To choose a new password, redeem this code within 30 minutes (it works once):
                \(code)
                If it was not you, ignore this message: the password has not changed.
                """,
            createdAt: now)
        try await store.database.write { db in
            try db.execute(sql: "DELETE FROM password_reset WHERE userId = ? OR expiresAt <= ?", arguments: [user, now])
            try db.execute(
                sql: """
                    INSERT INTO password_reset (codeHash, merchantId, userId, expiresAt, createdAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [Secrets.sha256Hex(code), row.merchantID, user, expiresAt, now])
            try Self.insert(message, merchantID: row.merchantID, db)
        }
        try await securityLog.record(
            .passwordResetRequested, merchantID: row.merchantID, userID: user, address: address,
            detail: "A one-time reset code was mailed; the password is unchanged until it is redeemed.")
    }

    /// Redeems a reset code: sets the new password, lifts a lockout and ends the user's API
    /// and dashboard sessions. The code is spent in the same transaction, so two uses cannot
    /// both succeed.
    ///
    /// - Returns: the user whose password was set.
    /// - Throws: 4010 for a code that is unknown, used or expired; 4003 when the confirmation
    ///   differs or the policy is not met (the code stays usable).
    @discardableResult
    public func confirmPasswordReset(
        _ request: ConfirmPasswordResetRequest, address: String? = nil
    ) async throws -> (merchantID: String, userID: String) {
        let now = self.now
        let hash = Secrets.sha256Hex(request.code)
        let refused = GatewayError.unauthorized("The reset code is unknown, used or expired.")
        guard let owner = try await store.database.read({ db in
            try db.fetchOne(
                sql: "SELECT merchantId, userId FROM password_reset WHERE codeHash = ? AND usedAt IS NULL AND expiresAt > ?",
                arguments: [hash, now]
            ).map { (merchantID: $0["merchantId"] as String, userID: $0["userId"] as String) }
        }) else { throw refused }
        guard request.newPassword == request.confirmation else {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, "The confirmation differs from the new password.")
        }
        if let problem = Self.passwordPolicyProblem(request.newPassword, user: owner.userID) {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, problem)
        }
        let passwordHash = try PasswordHasher.hash(request.newPassword, rounds: configuration.passwordHashRounds)
        let redeemed = try await store.database.write { db in
            let spent = try db.execute(
                sql: "UPDATE password_reset SET usedAt = ? WHERE codeHash = ? AND usedAt IS NULL AND expiresAt > ?",
                arguments: [now, hash, now])
            guard spent > 0 else { return false }
            try db.execute(
                sql: "UPDATE \"user\" SET passwordHash = ?, failedLogins = 0, lockedUntil = NULL WHERE id = ?",
                arguments: [passwordHash, owner.userID])
            try db.execute(sql: "DELETE FROM password_reset WHERE userId = ? AND usedAt IS NULL", arguments: [owner.userID])
            try Self.endSessions(ofUser: owner.userID, keeping: nil, db)
            return true
        }
        guard redeemed else { throw refused }
        accessTokens.remove { _, entry in entry.userID == owner.userID && entry.deviceID == nil }
        try await securityLog.record(
            .passwordResetRedeemed, merchantID: owner.merchantID, userID: owner.userID, address: address,
            detail: "A reset code set a new password; the user's sessions (not its devices') ended and a lockout was lifted.")
        return owner
    }

    /// Changes the caller's password after checking the old one and the policy, and ends the
    /// user's other sessions (API and dashboard): whoever knew the old password is out.
    ///
    /// - Parameter keeping: the token hash of the caller's own session, which stays open.
    /// - Throws: 4014 for a wrong old password, 4003 when the confirmation differs or the
    ///   policy is not met.
    public func changePassword(
        merchantID: String, userID: String, keeping tokenHash: String?, request: ChangePasswordRequest,
        address: String? = nil
    ) async throws {
        guard let passwordHash = try await store.database.read({ db in
            try db.fetchValue(
                String.self, sql: "SELECT passwordHash FROM \"user\" WHERE id = ? AND merchantId = ?",
                arguments: [userID, merchantID])
        }) else { throw GatewayError.unauthorized() }
        guard PasswordHasher.verify(request.oldPassword, against: passwordHash) else {
            // Not 4010: that would tell the client its session lapsed, and it would renew it.
            throw GatewayError(code: GatewayErrorCode.wrongPassword, "The old password is wrong.")
        }
        guard request.newPassword == request.confirmation else {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, "The confirmation differs from the new password.")
        }
        if let problem = Self.passwordPolicyProblem(request.newPassword, user: userID) {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, problem)
        }
        if request.newPassword == request.oldPassword {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, "The new password must differ from the old one.")
        }
        let hash = try PasswordHasher.hash(request.newPassword, rounds: configuration.passwordHashRounds)
        try await store.database.write { db in
            try db.execute(
                sql: "UPDATE \"user\" SET passwordHash = ? WHERE id = ? AND merchantId = ?",
                arguments: [hash, userID, merchantID])
            try Self.endSessions(ofUser: userID, keeping: tokenHash, db)
        }
        accessTokens.remove { hash, entry in entry.userID == userID && entry.deviceID == nil && hash != tokenHash }
        try await securityLog.record(
            .passwordChanged, merchantID: merchantID, userID: userID, address: address,
            detail: "The user changed the password; the user's other sessions ended.")
    }

    /// Deletes the user's API sessions but the one whose token hashes to `kept` and those of
    /// registered devices (a device's credential is its own: revoking the device ends them),
    /// and all the user's dashboard sessions, inside the caller's transaction.
    static func endSessions(ofUser userID: String, keeping kept: String?, _ db: any SQLSession) throws {
        if let kept {
            try db.execute(
                sql: "DELETE FROM accessToken WHERE userId = ? AND deviceId IS NULL AND tokenHash <> ?",
                arguments: [userID, kept])
        } else {
            try db.execute(sql: "DELETE FROM accessToken WHERE userId = ? AND deviceId IS NULL", arguments: [userID])
        }
        try db.execute(sql: "DELETE FROM dashboard_session WHERE user_id = ?", arguments: [userID])
    }
}
