import Foundation
import GRDB
import GatewayAPI
import MPOSCore

/// The credentials of a sandbox merchant, shown once when created (only their hashes are
/// stored).
public struct SandboxCredentials: Sendable, Hashable, Codable {
    /// The merchant id.
    public var merchantID: String
    /// The user id to log in with.
    public var user: String
    /// The user's password.
    public var password: String
    /// The merchant's API key for `X-API-Key` (minting client tokens, reading the outbox).
    public var apiKey: String
    /// The user's e-mail address.
    public var email: String
}

/// Merchants, users, passwords, sessions, client tokens, API keys and the outbox.
///
/// Every method that acts for a caller takes the caller's merchant id and touches only that
/// merchant's rows.
public struct AccountService: Sendable {
    let store: GatewayStore
    let configuration: SandboxGatewayConfiguration
    /// Client tokens already read from the database (they expire, or end with their device).
    let clientTokens: TokenCache<ClientTokenEntry>
    /// Access tokens already read from the database, with the expiry last written: every
    /// write that ends sessions removes them from here after it commits. On a database that
    /// other instances share, an entry answers for ``sharedDatabaseTokenCacheAge`` only, so a
    /// logout or password reset on another instance takes effect here within that time.
    let accessTokens: TokenCache<AccessTokenEntry>
    /// Failed logins by address and by (user, address), this instance's.
    let throttle: LoginThrottleStore
    /// The append-only security log.
    public let securityLog: SecurityLog
    /// A hash of no one's password, checked against when the user is unknown so that an
    /// unknown user costs the same time as a wrong password.
    let unknownUserPasswordHash: String

    /// How long a token read from a shared (PostgreSQL) database is trusted without reading
    /// it again: one second.
    static let sharedDatabaseTokenCacheAge: TimeInterval = 1

    /// Accounts on `store`, with token caches that suit its engine.
    init(store: GatewayStore, configuration: SandboxGatewayConfiguration) {
        self.store = store
        self.configuration = configuration
        let age = store.database.isSharedByInstances ? Self.sharedDatabaseTokenCacheAge : nil
        self.clientTokens = TokenCache(maximumAge: age)
        self.accessTokens = TokenCache(maximumAge: age)
        self.throttle = LoginThrottleStore()
        self.securityLog = SecurityLog(database: store.database, now: configuration.now, logLevel: configuration.logLevel)
        // Random salt and digest: checking a password against it costs the rounds and matches nothing.
        self.unknownUserPasswordHash =
            "pbkdf2-sha256$\(configuration.passwordHashRounds)$\(Secrets.hex(Secrets.randomBytes(16)))$\(Secrets.hex(Secrets.randomBytes(32)))"
    }

    var now: Date { configuration.now() }

    /// The merchant's information as the API reports it.
    public func merchantInfo(merchantID: String, userID: String?) async throws -> MerchantInfo {
        let instanceID = store.instanceID
        let info = try await store.database.read { db in
            try db.fetchOne(sql: "SELECT * FROM merchant WHERE id = ?", arguments: [merchantID]).map { row in
                let code: String = row["currency"]
                return MerchantInfo(
                    id: row["id"], name: row["name"], currency: Currency(code: code) ?? .eur,
                    country: row["country"], categoryCode: row["categoryCode"], address: row["address"],
                    userID: userID, gatewayInstanceID: instanceID, environment: .sandbox)
            }
        }
        guard let info else { throw GatewayError.notFound("No such merchant.") }
        return info
    }

    // MARK: Login and tokens

    /// Ends the session of `token` (an access token).
    public func logout(token: String) async throws {
        try await endSession(hash: Secrets.sha256Hex(token))
    }

    /// Deletes the session whose token hashes to `hash`, then forgets it in the cache.
    private func endSession(hash: String) async throws {
        try await store.database.write { db in
            try db.execute(sql: "DELETE FROM accessToken WHERE tokenHash = ?", arguments: [hash])
        }
        accessTokens.remove(hash: hash)
    }

    /// Resolves a bearer token: an access token (whose expiry slides forward by the session
    /// lifetime on every use) or a client token (fixed expiry).
    ///
    /// - Returns: the principal, or the error to answer with (4011 expired, 4010 unknown).
    public func resolveBearer(_ token: String) async throws -> Result<GatewayPrincipal, GatewayError> {
        let hash = Secrets.sha256Hex(token)
        let now = self.now
        // Read before the lookup: a session ended after this point is not cached again.
        let generation = (access: accessTokens.generation, client: clientTokens.generation)
        // An entry that says the session has expired is read again: another instance may
        // have moved the expiry since.
        if let cached = accessTokens.entry(for: hash, now: now), cached.expiresAt > now {
            return try await session(cached, hash: hash, now: now, generation: generation.access)
        }
        if let cached = clientTokens.entry(for: hash, now: now) {
            return Self.clientPrincipal(cached, now: now)
        }
        // Not seen yet: a read resolves the token (WAL readers run concurrently and never wait
        // for an fsync), and the caches answer the token's next uses.
        enum Found { case access(AccessTokenEntry), client(ClientTokenEntry), none }
        let found: Found = try await store.database.read { db in
            if let row = try db.fetchOne(
                sql: "SELECT merchantId, userId, expiresAt, deviceId FROM accessToken WHERE tokenHash = ?",
                arguments: [hash])
            {
                return .access(
                    AccessTokenEntry(
                        merchantID: row["merchantId"], userID: row["userId"], expiresAt: row["expiresAt"],
                        deviceID: row["deviceId"]))
            }
            if let row = try db.fetchOne(
                sql: "SELECT merchantId, expiresAt, deviceId FROM clientToken WHERE tokenHash = ?", arguments: [hash])
            {
                return .client(
                    ClientTokenEntry(merchantID: row["merchantId"], expiresAt: row["expiresAt"], deviceID: row["deviceId"]))
            }
            return .none
        }
        switch found {
        case .access(let entry):
            return try await session(entry, hash: hash, now: now, generation: generation.access)
        case .client(let entry):
            clientTokens.insert(entry, for: hash, now: now, unlessRemovedSince: generation.client)
            return Self.clientPrincipal(entry, now: now)
        case .none:
            return .failure(.unauthorized("Unknown token."))
        }
    }

    /// The principal of an access token's session, or 4011 once it has expired (the row is
    /// then deleted). A write happens only then, or when the sliding expiry is due to move by
    /// more than a minute: not on every request. `generation` is the cache's, read before
    /// `entry` was looked up.
    private func session(
        _ entry: AccessTokenEntry, hash: String, now: Date, generation: UInt64
    ) async throws -> Result<GatewayPrincipal, GatewayError> {
        guard entry.expiresAt > now else {
            try await endSession(hash: hash)
            return .failure(GatewayError(code: GatewayErrorCode.tokenExpired, "The access token has expired; log in again."))
        }
        var entry = entry
        let extended = now.addingTimeInterval(configuration.sessionLifetime)
        if extended.timeIntervalSince(entry.expiresAt) > Self.slidingExpiryGranularity {
            let changed = try await store.database.write { db in
                try db.execute(
                    sql: "UPDATE accessToken SET expiresAt = ? WHERE tokenHash = ?", arguments: [extended, hash])
            }
            // Ended meanwhile (a logout, a password reset): the session is gone.
            guard changed > 0 else { return .failure(.unauthorized("Unknown token.")) }
            entry.expiresAt = extended
        }
        accessTokens.insert(entry, for: hash, now: now, unlessRemovedSince: generation)
        return .success(
            GatewayPrincipal(
                merchantID: entry.merchantID, userID: entry.userID,
                kind: entry.deviceID == nil ? .accessToken : .deviceSession, tokenHash: hash))
    }

    /// The principal of a client token, or 4011 once it has expired.
    static func clientPrincipal(_ entry: ClientTokenEntry, now: Date) -> Result<GatewayPrincipal, GatewayError> {
        guard entry.expiresAt > now else {
            return .failure(GatewayError(code: GatewayErrorCode.tokenExpired, "The client token has expired; mint a new one."))
        }
        // One minted for a device's credential is that device's session.
        return .success(
            GatewayPrincipal(
                merchantID: entry.merchantID, userID: nil, kind: entry.deviceID == nil ? .clientToken : .deviceSession))
    }

    /// How far a sliding expiry may lag behind "now + lifetime" before a request moves it
    /// (one durable write per token per minute at most, instead of one per request).
    static let slidingExpiryGranularity: TimeInterval = 60

    /// Resolves an API key.
    public func resolveAPIKey(_ key: String) async throws -> GatewayPrincipal? {
        let hash = Secrets.sha256Hex(key)
        let merchantID = try await store.database.read { db in
            try db.fetchValue(String.self, sql: "SELECT merchantId FROM apiKey WHERE keyHash = ? AND revokedAt IS NULL", arguments: [hash])
        }
        return merchantID.map { GatewayPrincipal(merchantID: $0, userID: nil, kind: .apiKey) }
    }

    /// Mints a client token for the merchant; `lifetime` is clamped to 60...3600 seconds.
    public func mintClientToken(merchantID: String, lifetime: TimeInterval?, address: String? = nil) async throws -> ClientToken {
        let seconds = min(max(lifetime ?? configuration.clientTokenLifetime, 60), 3600)
        let token = Secrets.newToken(prefix: "ct_")
        let now = self.now
        let expiresAt = now.addingTimeInterval(seconds)
        try await store.database.write { db in
            try db.execute(sql: "DELETE FROM clientToken WHERE expiresAt <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO clientToken (tokenHash, merchantId, expiresAt, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [Secrets.sha256Hex(token), merchantID, expiresAt, now])
        }
        try await securityLog.record(
            .clientTokenGranted, merchantID: merchantID, address: address,
            detail: "A client token valid for \(Int(seconds)) seconds was minted with the API key.")
        return ClientToken(token: token, expiresAt: expiresAt, merchantID: merchantID)
    }

    // MARK: Passwords

    /// Why `password` does not meet the policy, or `nil`: at least 8 characters, a letter
    /// and a digit, and not the user id.
    public static func passwordPolicyProblem(_ password: String, user: String) -> String? {
        if password.count < 8 { return "The password must have at least 8 characters." }
        if !password.contains(where: \.isLetter) || !password.contains(where: \.isNumber) {
            return "The password must contain a letter and a digit."
        }
        if password.lowercased() == user.lowercased() { return "The password may not equal the user id." }
        return nil
    }

    /// Writes the user ids registered for `email` to the outbox (nothing if there are none).
    public func forgotUserID(email: String) async throws {
        let users = try await store.database.read { db in
            try db.fetchAll(sql: "SELECT id, merchantId, email FROM \"user\" WHERE LOWER(email) = LOWER(?)", arguments: [email])
                .map { row in (id: row["id"] as String, merchantID: row["merchantId"] as String, email: row["email"] as String) }
        }
        for found in users {
            let user = found.id
            try await writeOutbox(
                merchantID: found.merchantID, channel: .email, recipient: found.email,
                subject: "Your MPOSKit sandbox user id",
                body: "The user id registered for this address is: \(user)")
        }
    }

    // MARK: Outbox

    /// Records a message the sandbox "sends" (e-mail or SMS) for the merchant. Other
    /// domains use it too (receipts). Never put card data in `body`.
    @discardableResult
    public func writeOutbox(
        merchantID: String, channel: MessageChannel, recipient: String, subject: String, body: String
    ) async throws -> OutboxMessage {
        let message = OutboxMessage(
            id: Secrets.newID(prefix: "msg_"), channel: channel, recipient: recipient,
            subject: subject, body: body, createdAt: now)
        try await store.database.write { db in try Self.insert(message, merchantID: merchantID, db) }
        return message
    }

    /// Inserts `message` into the merchant's outbox inside the caller's transaction.
    static func insert(_ message: OutboxMessage, merchantID: String, _ db: any SQLSession) throws {
        try db.execute(
            sql: """
                INSERT INTO outbox (id, merchantId, channel, recipient, subject, body, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                message.id, merchantID, message.channel.rawValue, message.recipient, message.subject, message.body,
                message.createdAt,
            ])
    }

    /// The merchant's outbox, newest first (at most 200 messages).
    public func outbox(merchantID: String) async throws -> OutboxList {
        let messages = try await store.database.read { db in
            try db.fetchAll(
                sql: "SELECT * FROM outbox WHERE merchantId = ? ORDER BY createdAt DESC, \(db.dialect.rowOrder) DESC LIMIT 200",
                arguments: [merchantID]
            ).map { row in
                let channel: String = row["channel"]
                return OutboxMessage(
                    id: row["id"], channel: MessageChannel(rawValue: channel) ?? .email,
                    recipient: row["recipient"], subject: row["subject"], body: row["body"],
                    createdAt: row["createdAt"])
            }
        }
        return OutboxList(messages: messages)
    }
}
