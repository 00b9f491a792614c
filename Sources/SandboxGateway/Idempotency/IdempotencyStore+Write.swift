import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import MPOSCore

extension IdempotencyStore {
    /// Runs a request whose whole effect is one database write, in ONE transaction with its
    /// idempotency record: the key is looked up, `write` runs, and its answer is stored as the
    /// key's completed answer, all in the same transaction (shared with concurrent requests
    /// under group commit), so no request pays for a separate claim and completion.
    ///
    /// The answer is the same as ``idempotent(key:merchant:body:scope:_:)``'s: a repeat with
    /// the same request replays the stored answer byte for byte (`Idempotent-Replayed:
    /// true`), with another request it gets 409/4090, and `write` runs at most once per key.
    /// Because claim and answer commit together, a concurrent repeat never sees the key in
    /// progress: it waits for the first one's commit and gets its answer.
    ///
    /// - Parameters:
    ///   - key: the client's idempotency key.
    ///   - merchant: the caller's merchant id.
    ///   - body: the request body as received.
    ///   - scope: method and path, hashed with the body.
    ///   - lockOrder: the write's place in its group when it changes rows other writes change
    ///     too (a card sale's fingerprint: ``LedgerWriter/write(lockOrder:_:)``); nil for none.
    ///   - write: runs inside the transaction and returns the status and JSON body to store
    ///     with a value for after-commit work (`effect`). A ``GatewayError`` it throws rolls
    ///     back its changes and is stored and replayed like any answer; any other error rolls
    ///     back everything, key included, and propagates.
    /// - Returns: the response, and `write`'s effect when this request ran it (`nil` for a
    ///   replay or a stored error).
    public func idempotentWrite<Effect: Sendable>(
        key: IdempotencyKey, merchant: String, body: Data, scope: String = "", lockOrder: String? = nil,
        _ write: @escaping @Sendable (any SQLSession) throws -> (HTTPResponse.Status, Data, Effect)
    ) async throws -> (response: Response, effect: Effect?) {
        let requestHash = Self.requestHash(scope: scope, body: body)
        let now = configuration.now()
        let retentionStart = now.addingTimeInterval(-configuration.effectiveKeyRetention)
        let keyText = key.rawValue
        let createdAt = SQLiteTimestamp.string(from: now)

        let outcome: WriteOutcome<Effect>
        do {
            outcome = try await claimAndWrite(
                merchant: merchant, key: keyText, requestHash: requestHash, createdAt: createdAt,
                retentionStart: retentionStart, lockOrder: lockOrder, write)
        } catch {
            // A key sent again after its answer expired: the ledger's unique key refused a second
            // payment under it; the client hears of the first.
            if let made = try await answerInLedger(key: keyText, merchant: merchant) { return (made, nil) }
            throw error
        }
        switch outcome {
        case .conflict:
            throw Self.conflict
        case .inProgress:
            throw Self.inProgress
        case .replay(let status, let data):
            return (Self.replayResponse(status: status, data: data), nil)
        case .answered(let status, let data, let effect):
            return (GatewayResponse.json(data, status: HTTPResponse.Status(code: status)), effect)
        }
    }

    /// The one transaction of ``idempotentWrite(key:merchant:body:scope:_:)``: the claim, `write`
    /// in a savepoint, and the key's answer.
    private func claimAndWrite<Effect: Sendable>(
        merchant: String, key keyText: String, requestHash: String, createdAt: String, retentionStart: Date,
        lockOrder: String?, _ write: @escaping @Sendable (any SQLSession) throws -> (HTTPResponse.Status, Data, Effect)
    ) async throws -> WriteOutcome<Effect> {
        // Where writes run one at a time, a lookup decides for good and the key is written once,
        // with its answer; elsewhere the insert claims it first (``claim(_:merchant:key:requestHash:createdAt:retentionStart:)``).
        let claimsFirst = !store.database.writesOneAtATime
        let transaction: @Sendable (any SQLSession) throws -> WriteOutcome<Effect> = { db in
            let existing =
                claimsFirst
                ? try Self.claim(
                    db, merchant: merchant, key: keyText, requestHash: requestHash, createdAt: createdAt,
                    retentionStart: retentionStart)
                : try Self.existingKey(
                    db, merchant: merchant, key: keyText, requestHash: requestHash, retentionStart: retentionStart)
            switch existing {
            case .conflict: return .conflict
            case .inProgress: return .inProgress
            case .replay(let status, let data): return .replay(status, data)
            case nil: break
            }
            let answer: (status: Int, data: Data, effect: Effect?)
            do {
                let done = try db.inSavepoint { try write(db) }
                answer = (done.0.code, done.1, done.2)
            } catch let error as GatewayError {
                answer = (error.status.code, try GatewayResponse.jsonData(error.body), nil)
            }
            if claimsFirst {
                try db.execute(
                    sql: """
                        UPDATE idempotencyKey SET state = 'completed', httpStatus = ?, response = ?
                        WHERE merchantId = ? AND key = ?
                        """,
                    arguments: [answer.status, answer.data, merchant, keyText])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO idempotencyKey (merchantId, key, requestSHA256, state, httpStatus, response, createdAt)
                        VALUES (?, ?, ?, 'completed', ?, ?, ?)
                        """,
                    arguments: [merchant, keyText, requestHash, answer.status, answer.data, createdAt])
            }
            return .answered(answer.status, answer.data, answer.effect)
        }
        guard let lockOrder else { return try await writer.write(transaction) }
        return try await writer.write(lockOrder: lockOrder, transaction)
    }

    /// ``idempotentWrite(key:merchant:body:scope:_:)`` with the `Idempotency-Key` header and the
    /// caller's merchant, scoped to the request's method and path.
    public func idempotentWrite<Effect: Sendable>(
        request: Request, context: GatewayRequestContext, body: Data, lockOrder: String? = nil,
        _ write: @escaping @Sendable (any SQLSession) throws -> (HTTPResponse.Status, Data, Effect)
    ) async throws -> (response: Response, effect: Effect?) {
        let merchant = try context.requireMerchant()
        let key = try context.requireIdempotencyKey(request)
        return try await idempotentWrite(
            key: key, merchant: merchant, body: body, scope: "\(request.method) \(request.uri.path)",
            lockOrder: lockOrder, write)
    }
}

/// What the one transaction of an idempotent write found or did.
extension IdempotencyStore {
    /// 409/4090: the key was used before with another request.
    static let conflict = GatewayError(
        code: GatewayErrorCode.idempotencyConflict,
        "The idempotency key was used before with a different request.")
    /// 409/4091: the key's first request has not finished.
    static let inProgress = GatewayError(
        code: GatewayErrorCode.idempotencyInProgress,
        "A request with this idempotency key is still being processed; retry later.")

    /// What a key already holds within the retention period.
    enum ExistingKey { case replay(Int, Data), conflict, inProgress }

    /// SHA-256 of method-and-path, a newline and the body: what "the same request" means.
    static func requestHash(scope: String, body: Data) -> String {
        var fingerprint = Data(scope.utf8)
        fingerprint.append(0x0A)
        fingerprint.append(body)
        return Secrets.sha256Hex(fingerprint)
    }

    /// Claims `key` for this request inside a write: inserts it in progress and returns
    /// `nil`, or returns what the key already holds (its stored answer, a conflict, in
    /// progress).
    ///
    /// The claim is the insert itself (`ON CONFLICT DO NOTHING`, then its row count), with no
    /// lookup before it: instances sharing one PostgreSQL database may look at the same
    /// moment, and the unique key lets one insert win. The loser's insert waits for the
    /// winner's transaction and, once it has committed, reads its answer. A new key, the
    /// common case, costs one statement.
    static func claim(
        _ db: any SQLSession, merchant: String, key: String, requestHash: String, createdAt: String,
        retentionStart: Date
    ) throws -> ExistingKey? {
        for _ in 0..<3 {
            let claimed = try db.execute(
                sql: """
                    INSERT INTO idempotencyKey (merchantId, key, requestSHA256, state, createdAt)
                    VALUES (?, ?, ?, 'inProgress', ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [merchant, key, requestHash, createdAt])
            if claimed > 0 { return nil }
            // Held already: its answer, a conflict or in progress; or expired, deleted by the
            // lookup, and claimed on the next turn.
            if let existing = try existingKey(
                db, merchant: merchant, key: key, requestHash: requestHash, retentionStart: retentionStart)
            {
                return existing
            }
        }
        // Taken by another request and gone again before this one could read it (its
        // request failed and forgot the key): the client retries.
        return .inProgress
    }

    /// Looks `key` up inside a write: its stored answer, a conflict (another request) or
    /// "in progress"; nil when it is unknown or expired (an expired record is deleted).
    static func existingKey(
        _ db: any SQLSession, merchant: String, key: String, requestHash: String, retentionStart: Date
    ) throws -> ExistingKey? {
        guard
            let row = try db.fetchOne(
                sql:
                    "SELECT requestSHA256, state, httpStatus, response, createdAt FROM idempotencyKey WHERE merchantId = ? AND key = ?",
                arguments: [merchant, key])
        else { return nil }
        let createdAt: Date = row["createdAt"]
        guard createdAt > retentionStart else {
            try db.execute(
                sql: "DELETE FROM idempotencyKey WHERE merchantId = ? AND key = ?",
                arguments: [merchant, key])
            return nil
        }
        let storedHash: String = row["requestSHA256"]
        if storedHash != requestHash { return .conflict }
        let state: String = row["state"]
        if state != "completed" { return .inProgress }
        return .replay(row["httpStatus"], row["response"])
    }
}

private enum WriteOutcome<Effect: Sendable>: Sendable {
    case answered(Int, Data, Effect?)
    case replay(Int, Data)
    case conflict
    case inProgress
}
