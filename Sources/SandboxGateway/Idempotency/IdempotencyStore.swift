import Foundation
import GRDB
import GatewayAPI
import Hummingbird
import Logging
import MPOSCore

/// Stored answers to requests made with an `Idempotency-Key`, per merchant.
///
/// The first request with a key runs and its answer (status and body bytes) is stored with
/// the SHA-256 of the request; a repeat with the same request gets the stored answer byte
/// for byte (with `Idempotent-Replayed: true`), a repeat with another request gets 409/4090,
/// and a repeat while the first still runs gets 409/4091. Keys are kept at least 24 hours.
///
/// EXTENSION POINT: payment routes wrap their work in ``idempotent(key:merchant:body:scope:_:)``
/// or ``idempotent(request:context:body:_:)``.
public struct IdempotencyStore: Sendable {
    let store: GatewayStore
    let configuration: SandboxGatewayConfiguration
    /// Claims and completions are small writes that many concurrent requests make at once:
    /// they go through the gateway's ledger writer, sharing group commits with the payments.
    let writer: any LedgerWriter

    /// Runs `work` at most once per `(merchant, key)`.
    ///
    /// - Parameters:
    ///   - key: the client's idempotency key.
    ///   - merchant: the caller's merchant id.
    ///   - body: the request body as received.
    ///   - scope: what else identifies the request (method and path), hashed with the body
    ///     so the same key on another route is a conflict rather than a replay.
    ///   - work: performs the request and returns the status and JSON body to store. A
    ///     ``GatewayError`` it throws is stored and replayed like any answer; any other
    ///     error forgets the key (the request may be retried) and propagates.
    public func idempotent(
        key: IdempotencyKey, merchant: String, body: Data, scope: String = "",
        _ work: () async throws -> (HTTPResponse.Status, Data)
    ) async throws -> Response {
        let requestHash = Self.requestHash(scope: scope, body: body)
        let now = configuration.now()
        let retentionStart = now.addingTimeInterval(-configuration.effectiveKeyRetention)

        enum Claim { case claimed, replay(Int, Data), conflict, inProgress }
        let createdAt = SQLiteTimestamp.string(from: now)
        let claim: Claim = try await writer.write { db in
            switch try Self.claim(
                db, merchant: merchant, key: key.rawValue, requestHash: requestHash, createdAt: createdAt,
                retentionStart: retentionStart)
            {
            case .conflict: return .conflict
            case .inProgress: return .inProgress
            case .replay(let status, let data): return .replay(status, data)
            case nil: return .claimed
            }
        }
        switch claim {
        case .conflict:
            throw Self.conflict
        case .inProgress:
            throw Self.inProgress
        case .replay(let status, let data):
            return Self.replayResponse(status: status, data: data)
        case .claimed:
            break
        }
        let status: HTTPResponse.Status
        let data: Data
        do {
            (status, data) = try await work()
        } catch let error as GatewayError {
            status = error.status
            data = try GatewayResponse.jsonData(error.body)
        } catch {
            await release(key: key.rawValue, merchant: merchant)
            // A key sent again after its answer expired: the ledger's unique key refused a second
            // payment under it; the client hears of the first.
            if let made = try await answerInLedger(key: key.rawValue, merchant: merchant) { return made }
            throw error
        }
        _ = try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE idempotencyKey SET state = 'completed', httpStatus = ?, response = ?
                    WHERE merchantId = ? AND key = ?
                    """,
                arguments: [status.code, data, merchant, key.rawValue])
        }
        return GatewayResponse.json(data, status: status)
    }

    /// Forgets the claim of a request that failed, so that the client may send it again.
    ///
    /// A claim left behind answers every retry 409/4091 until it expires, 24 hours on: so a
    /// release the ledger writer could not make is made again in a transaction of its own, and
    /// one that fails twice is logged as an error with what it leaves stuck. The request's own
    /// error is what its caller hears either way.
    func release(key: String, merchant: String) async {
        @Sendable func delete(_ db: any SQLSession) throws {
            try db.execute(
                sql: "DELETE FROM idempotencyKey WHERE merchantId = ? AND key = ? AND state = 'inProgress'",
                arguments: [merchant, key])
        }
        do {
            try await writer.write(delete)
        } catch {
            do {
                try await store.database.write(delete)
            } catch {
                var logger = Logger(label: "mposkit.sandbox-gateway.idempotency")
                logger.logLevel = configuration.logLevel
                logger.error(
                    "An idempotency key of a failed request could not be released: its retries are answered 4091 until it expires.",
                    metadata: ["merchant": "\(merchant)", "key": "\(key)", "error": "\(String(describing: type(of: error)))"])
            }
        }
    }

    /// Reads the `Idempotency-Key` header, the caller's merchant and the body, then runs
    /// ``idempotent(key:merchant:body:scope:_:)`` scoped to the request's method and path.
    ///
    /// - Parameter body: the body already read with ``readBody(_:context:)``.
    public func idempotent(
        request: Request, context: GatewayRequestContext, body: Data,
        _ work: () async throws -> (HTTPResponse.Status, Data)
    ) async throws -> Response {
        let merchant = try context.requireMerchant()
        let key = try context.requireIdempotencyKey(request)
        return try await idempotent(
            key: key, merchant: merchant, body: body, scope: "\(request.method) \(request.uri.path)", work)
    }

    /// The stored answer for `key`, replayed byte for byte, or 404/4040 (409/4091 while in
    /// progress). Once the stored answer has expired, a payment made under the key is still
    /// found: the answer is then its ledger row as it stands (``LedgerAttempts``), for as long
    /// as the payment exists.
    public func attempt(key: IdempotencyKey, merchant: String) async throws -> Response {
        let retentionStart = configuration.now().addingTimeInterval(-configuration.effectiveKeyRetention)
        let row = try await store.database.read { db in
            try db.fetchOne(
                sql:
                    "SELECT state, httpStatus, response FROM idempotencyKey WHERE merchantId = ? AND key = ? AND createdAt > ?",
                arguments: [merchant, key.rawValue, retentionStart]
            ).map { row in (state: row["state"] as String, status: row["httpStatus"] as Int?, response: row["response"] as Data?) }
        }
        guard let row else {
            guard let made = try await answerInLedger(key: key.rawValue, merchant: merchant) else {
                throw GatewayError.notFound("No request is known with this idempotency key.")
            }
            return made
        }
        guard row.state == "completed", let status = row.status, let response = row.response else {
            throw GatewayError(
                code: GatewayErrorCode.idempotencyInProgress,
                "The request with this idempotency key is still being processed.")
        }
        return Self.replayResponse(status: status, data: response)
    }

    /// Deletes keys older than the retention (at least 24 hours) by the injected clock.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let retentionStart = configuration.now().addingTimeInterval(-configuration.effectiveKeyRetention)
        return try await store.database.write { db in
            try db.execute(
                sql: "DELETE FROM idempotencyKey WHERE createdAt <= ?", arguments: [retentionStart])
        }
    }

    /// The answer of the ledger row made under `key`, marked as a replay; nil when none was.
    func answerInLedger(key: String, merchant: String) async throws -> Response? {
        try await store.database.read { db in
            try LedgerAttempts.answer(db, merchant: merchant, key: key)
        }.map { Self.replayResponse(status: $0.status, data: $0.data) }
    }

    static func replayResponse(status: Int, data: Data) -> Response {
        var response = GatewayResponse.json(data, status: HTTPResponse.Status(code: status))
        if let name = HTTPFieldName(GatewayHeaders.idempotentReplayed) {
            response.headers[name] = "true"
        }
        return response
    }
}
