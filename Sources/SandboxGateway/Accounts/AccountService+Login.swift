import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// Checks the credentials and opens a session.
    ///
    /// Guessing is slowed before it locks anyone: failures are counted per client address and
    /// per (user, address) (``LoginThrottle``), and a key past its free failures is answered
    /// 4290 with `Retry-After` until its wait is over, without a password check. A user is
    /// locked after ``SandboxGatewayConfiguration/maximumFailedLogins`` failures in a row
    /// (10 by default) for ``SandboxGatewayConfiguration/lockoutDuration`` (30 minutes), the
    /// right password refused too (PCI DSS 8.3.4). An unknown user id is answered exactly as
    /// a real user with a wrong password, in the same time (its password is checked against
    /// a hash of no one's), and "locks" after as many failures.
    ///
    /// - Parameter address: the client's address (``GatewayRequestContext/clientAddress``).
    /// - Throws: 4010 for an unknown user or a wrong password, 4013 while the user is locked,
    ///   4290 while the address or the (user, address) must wait.
    /// - Parameter device: registers the device the login comes from and answers its device
    ///   credential in ``Session/deviceCredential``.
    public func login(
        user: String, password: String, address: String, device: DeviceRegistration? = nil
    ) async throws -> Session {
        if let device { try Self.checkDeviceName(device.name) }
        let now = self.now
        if let wait = throttle.delay(user: user, address: address, now: now) {
            securityLog.note(.loginThrottled, userID: user, address: address, detail: "Refused before a password check.")
            throw GatewayError.tooManyRequests(
                "Too many failed logins from this address; try again in \(Int(wait.rounded(.up))) seconds.",
                retryAfter: wait)
        }
        let found = try await store.database.read { db in
            try db.fetchOne(sql: "SELECT * FROM \"user\" WHERE id = ?", arguments: [user]).map { row in
                (merchantID: row["merchantId"] as String, lockedUntil: row["lockedUntil"] as Date?,
                 passwordHash: row["passwordHash"] as String)
            }
        }
        guard let found else {
            _ = PasswordHasher.verify(password, against: unknownUserPasswordHash)
            let failures = throttle.unknownUserFailures(user, now: now)
            if let failures, failures.count >= configuration.maximumFailedLogins {
                throw Self.lockedError(until: failures.last.addingTimeInterval(configuration.lockoutDuration), now: now)
            }
            throttle.recordFailure(user: user, address: address, knownUser: false, now: now)
            try await securityLog.record(
                .loginFailed, merchantID: nil, userID: user, address: address, detail: "Login as an unknown user.")
            if (failures?.count ?? 0) + 1 >= configuration.maximumFailedLogins {
                throw Self.lockedError(until: now.addingTimeInterval(configuration.lockoutDuration), now: now)
            }
            throw GatewayError.unauthorized("Invalid user or password.")
        }
        let merchantID = found.merchantID
        let matches = PasswordHasher.verify(password, against: found.passwordHash)
        if let lockedUntil = found.lockedUntil, lockedUntil > now {
            try await securityLog.record(
                .loginLocked, merchantID: merchantID, userID: user, address: address,
                detail: "Login refused: the user is locked (\(matches ? "right" : "wrong") password).")
            throw Self.lockedError(until: lockedUntil, now: now)
        }
        guard matches else {
            throttle.recordFailure(user: user, address: address, knownUser: true, now: now)
            let lockedUntil: Date? = try await store.database.write { db in
                let failures =
                    (try db.fetchValue(Int.self, sql: "SELECT failedLogins FROM \"user\" WHERE id = ?", arguments: [user]) ?? 0)
                    + 1
                if failures >= configuration.maximumFailedLogins {
                    let until = now.addingTimeInterval(configuration.lockoutDuration)
                    try db.execute(
                        sql: "UPDATE \"user\" SET failedLogins = 0, lockedUntil = ? WHERE id = ?", arguments: [until, user])
                    return until
                }
                try db.execute(
                    sql: "UPDATE \"user\" SET failedLogins = ?, lockedUntil = NULL WHERE id = ?",
                    arguments: [failures, user])
                return nil
            }
            if let lockedUntil {
                try await securityLog.record(
                    .loginLocked, merchantID: merchantID, userID: user, address: address,
                    detail: "\(configuration.maximumFailedLogins) failed logins in a row locked the user for \(Int(configuration.lockoutDuration)) seconds.")
                throw Self.lockedError(until: lockedUntil, now: now)
            }
            try await securityLog.record(
                .loginFailed, merchantID: merchantID, userID: user, address: address, detail: "Wrong password.")
            throw GatewayError.unauthorized("Invalid user or password.")
        }
        throttle.recordSuccess(user: user, address: address)
        let token = Secrets.newToken(prefix: "at_")
        let expiresAt = now.addingTimeInterval(configuration.sessionLifetime)
        let credential = device.map { _ in
            DeviceCredential(deviceID: Secrets.newID(prefix: "dev_"), secret: Secrets.newToken(prefix: "dr_"))
        }
        try await store.database.write { db in
            try db.execute(
                sql: "UPDATE \"user\" SET failedLogins = 0, lockedUntil = NULL WHERE id = ?", arguments: [user])
            try db.execute(sql: "DELETE FROM accessToken WHERE expiresAt <= ?", arguments: [now])
            try db.execute(
                sql: """
                    INSERT INTO accessToken (tokenHash, merchantId, userId, expiresAt, createdAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [Secrets.sha256Hex(token), merchantID, user, expiresAt, now])
            if let device, let credential {
                try db.execute(
                    sql: """
                        INSERT INTO device_credential (id, merchantId, userId, name, secretHash, createdAt)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [credential.deviceID, merchantID, user, device.name, Secrets.sha256Hex(credential.secret), now])
            }
        }
        accessTokens.remove { _, entry in entry.expiresAt <= now }
        if let device, let credential {
            try await securityLog.record(
                .deviceRegistered, merchantID: merchantID, userID: user, address: address,
                detail: "The device '\(device.name)' (\(credential.deviceID)) was registered with a login.")
        }
        return Session(
            accessToken: token, expiresAt: expiresAt,
            merchant: try await merchantInfo(merchantID: merchantID, userID: user),
            offlinePolicy: try await offlinePolicy(merchantID: merchantID), gatewayTime: self.now,
            deviceCredential: credential)
    }

    /// 4013 for a user locked until `until`.
    static func lockedError(until: Date, now: Date) -> GatewayError {
        GatewayError(
            code: GatewayErrorCode.locked,
            "Too many failed logins; the user is locked for \(Int(until.timeIntervalSince(now).rounded(.up))) more seconds.")
    }
}
