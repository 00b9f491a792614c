import Foundation
import GatewayAPI
import MPOSCore
import Synchronization
import Testing

@testable import SandboxGateway

/// A ledger writer that remembers the lock order each write was queued with (nil for none)
/// and passes the writes to `base`.
final class LockOrderRecordingWriter: LedgerWriter {
    let base: any LedgerWriter
    let orders = Mutex<[String?]>([])

    init(base: any LedgerWriter) { self.base = base }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        orders.withLock { $0.append(nil) }
        return try await base.write(body)
    }

    func write<T: Sendable>(lockOrder: String, _ body: @escaping @Sendable (any SQLSession) throws -> T)
        async throws -> T
    {
        orders.withLock { $0.append(lockOrder) }
        return try await base.write(body)
    }
}

/// An idempotent write that changes rows other writes change too (a card sale) keeps its
/// place in its group by its lock order, so that groups of two lanes or instances cannot
/// deadlock on a card's rows.
@Suite(.timeLimit(.minutes(2))) struct IdempotentWriteLockOrderTests {
    @Test func anIdempotentWriteIsQueuedWithItsLockOrder() async throws {
        try await GatewayHarness.with { harness in
            let environment = harness.gateway.environment
            let writer = LockOrderRecordingWriter(
                base: DirectLedgerWriter(database: environment.store.database))
            let store = IdempotencyStore(
                store: environment.store, configuration: environment.configuration, writer: writer)
            let merchant = harness.credentials.merchantID
            let ordered = try await store.idempotentWrite(
                key: try #require(IdempotencyKey(rawValue: "a-card-sale")), merchant: merchant,
                body: Data("{}".utf8),
                lockOrder: "card-fingerprint"
            ) { _ in (.ok, Data("{}".utf8), 1) }
            let unordered = try await store.idempotentWrite(
                key: try #require(IdempotencyKey(rawValue: "a-cash-sale")), merchant: merchant,
                body: Data("{}".utf8)
            ) { _ in (.ok, Data("{}".utf8), 2) }
            #expect(ordered.effect == 1)
            #expect(unordered.effect == 2)
            #expect(writer.orders.withLock { $0 } == ["card-fingerprint", nil])
        }
    }
}
