import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// Throws 4001 unless `name` is 1 to 64 characters without control characters.
    static func checkDeviceName(_ name: String) throws {
        guard (1...64).contains(name.unicodeScalars.count),
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw GatewayError.invalid("'device.name' must have 1 to 64 characters and no control characters.") }
    }

    /// Opens a session for a registered device with its credential, and replaces the secret:
    /// the answer carries the next one. The user's password is not involved, so a user locked
    /// out, reset or changed does not stop the device; a revoked device is refused.
    ///
    /// The secret before the current one is still taken until the current one is first used:
    /// a renewal whose answer was lost on the way can be made again with the secret the device
    /// still holds (and replaces the one it never received).
    ///
    /// - Throws: 4010 for an unknown or revoked device or a secret that is neither.
    public func deviceSession(_ request: DeviceSessionRequest, address: String? = nil) async throws -> Session {
        let now = self.now
        let presented = Secrets.sha256Hex(request.secret)
        let next = Secrets.newToken(prefix: "dr_")
        // An access token for a person's device, a client token for a client token's device.
        let random = Secrets.newToken(prefix: "")
        let expiresAt = now.addingTimeInterval(configuration.sessionLifetime)
        let clientExpiresAt = now.addingTimeInterval(configuration.clientTokenLifetime)
        enum Outcome: Sendable {
            case opened(merchantID: String, userID: String?, token: String)
            case refused(merchantID: String?)
        }
        let outcome: Outcome = try await store.database.write { db in
            guard let row = try db.fetchOne(
                sql: "SELECT merchantId, userId, secretHash, previousSecretHash, revokedAt FROM device_credential WHERE id = ?",
                arguments: [request.deviceID])
            else { return .refused(merchantID: nil) }
            let merchantID: String = row["merchantId"]
            guard (row["revokedAt"] as Date?) == nil else { return .refused(merchantID: merchantID) }
            let userID: String? = row["userId"]
            let replaced: Int
            if presented == row["secretHash"] as String {
                replaced = try db.execute(
                    sql: """
                        UPDATE device_credential SET previousSecretHash = secretHash, secretHash = ?, lastUsedAt = ?
                        WHERE id = ? AND secretHash = ? AND revokedAt IS NULL
                        """,
                    arguments: [Secrets.sha256Hex(next), now, request.deviceID, presented])
            } else if presented == row["previousSecretHash"] as String? {
                // The answer that carried the current secret never arrived.
                replaced = try db.execute(
                    sql: """
                        UPDATE device_credential SET secretHash = ?, lastUsedAt = ?
                        WHERE id = ? AND previousSecretHash = ? AND revokedAt IS NULL
                        """,
                    arguments: [Secrets.sha256Hex(next), now, request.deviceID, presented])
            } else {
                replaced = 0
            }
            guard replaced > 0 else { return .refused(merchantID: merchantID) }
            let token = (userID == nil ? "ct_" : "at_") + random
            if let userID {
                try db.execute(sql: "DELETE FROM accessToken WHERE expiresAt <= ?", arguments: [now])
                try db.execute(
                    sql: """
                        INSERT INTO accessToken (tokenHash, merchantId, userId, expiresAt, createdAt, deviceId)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [Secrets.sha256Hex(token), merchantID, userID, expiresAt, now, request.deviceID])
            } else {
                // Registered with a client token: its sessions are client tokens of the device.
                try db.execute(sql: "DELETE FROM clientToken WHERE expiresAt <= ?", arguments: [now])
                try db.execute(
                    sql: "INSERT INTO clientToken (tokenHash, merchantId, expiresAt, createdAt, deviceId) VALUES (?, ?, ?, ?, ?)",
                    arguments: [Secrets.sha256Hex(token), merchantID, clientExpiresAt, now, request.deviceID])
            }
            return .opened(merchantID: merchantID, userID: userID, token: token)
        }
        switch outcome {
        case .refused(let merchantID):
            try await securityLog.record(
                .deviceCredentialRefused, merchantID: merchantID, address: address,
                detail: "A device credential for \(request.deviceID) was refused (unknown, revoked or replaced).")
            throw GatewayError.unauthorized("The device credential is unknown, revoked or was replaced.")
        case .opened(let merchantID, let userID, let token):
            return Session(
                accessToken: token, expiresAt: userID == nil ? clientExpiresAt : expiresAt,
                merchant: try await merchantInfo(merchantID: merchantID, userID: userID),
                offlinePolicy: try await offlinePolicy(merchantID: merchantID), gatewayTime: self.now,
                deviceCredential: DeviceCredential(deviceID: request.deviceID, secret: next))
        }
    }

    /// Registers the device of a client token (an app whose backend hands it client tokens):
    /// its credential renews its sessions, as client tokens of the device, until it is revoked.
    /// A device a person's login registered has the person as its user.
    ///
    /// - Throws: 4001 for a name that is not 1 to 64 characters without control characters.
    public func registerDevice(
        merchantID: String, userID: String?, name: String, address: String? = nil
    ) async throws -> DeviceCredential {
        try Self.checkDeviceName(name)
        let credential = DeviceCredential(deviceID: Secrets.newID(prefix: "dev_"), secret: Secrets.newToken(prefix: "dr_"))
        let now = self.now
        try await store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO device_credential (id, merchantId, userId, name, secretHash, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [credential.deviceID, merchantID, userID, name, Secrets.sha256Hex(credential.secret), now])
        }
        try await securityLog.record(
            .deviceRegistered, merchantID: merchantID, userID: userID, address: address,
            detail: "The device '\(name)' (\(credential.deviceID)) was registered with \(userID == nil ? "a client token" : "a session").")
        return credential
    }

    /// The merchant's devices, newest first (at most 500).
    public func devices(merchantID: String) async throws -> DeviceList {
        let devices = try await store.database.read { db in
            try db.fetchAll(
                sql: """
                    SELECT id, name, userId, createdAt, lastUsedAt, revokedAt FROM device_credential
                    WHERE merchantId = ? ORDER BY createdAt DESC, id LIMIT 500
                    """,
                arguments: [merchantID]
            ).map { row in
                Device(
                    id: row["id"], name: row["name"], userID: row["userId"], createdAt: row["createdAt"],
                    lastUsedAt: row["lastUsedAt"], revokedAt: row["revokedAt"])
            }
        }
        return DeviceList(devices: devices)
    }

    /// Revokes the merchant's device `id`: its credential renews no session from now on and
    /// its sessions end, on every instance within the token cache's age.
    ///
    /// - Throws: 4040 when the merchant has no such device.
    public func revokeDevice(merchantID: String, id: String, by userID: String? = nil, address: String? = nil) async throws {
        let now = self.now
        let found = try await store.database.write { db in
            let changed = try db.execute(
                sql: "UPDATE device_credential SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND merchantId = ?",
                arguments: [now, id, merchantID])
            guard changed > 0 else { return false }
            try db.execute(sql: "DELETE FROM accessToken WHERE deviceId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM clientToken WHERE deviceId = ?", arguments: [id])
            return true
        }
        guard found else { throw GatewayError.notFound("No such device.") }
        accessTokens.remove { _, entry in entry.deviceID == id }
        clientTokens.remove { _, entry in entry.deviceID == id }
        try await securityLog.record(
            .deviceRevoked, merchantID: merchantID, userID: userID, address: address,
            detail: "The device \(id) was revoked; its sessions ended.")
    }
}
