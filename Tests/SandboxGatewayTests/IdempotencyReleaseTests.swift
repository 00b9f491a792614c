import Foundation
import GatewayAPI
import MPOSCore
import Synchronization
import Testing

@testable import SandboxGateway

/// A ledger writer that fails its `failing`-th write (counting from 1) and passes the others
/// to `base`: the group writer whose commit failed once.
final class WriterFailingOnce: LedgerWriter {
    struct Failure: Error {}
    let base: any LedgerWriter
    let failing: Int
    let count = Mutex(0)

    init(base: any LedgerWriter, failing: Int) {
        self.base = base
        self.failing = failing
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        let number = count.withLock { count in
            count += 1
            return count
        }
        if number == failing { throw Failure() }
        return try await base.write(body)
    }
}

/// A request that fails forgets its key, so that the client may send it again, even when the
/// writer that should forget it fails.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct IdempotencyReleaseTests {
    struct WorkFailed: Error {}

    @Test(arguments: GatewayTestEngine.allCases)
    func aFailedRequestsKeyIsReleasedWhenTheWriterFailsOnce(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let environment = harness.gateway.environment
            // Write 1 claims the key; write 2, the release after the work failed, fails.
            let writer = WriterFailingOnce(base: DirectLedgerWriter(database: environment.store.database), failing: 2)
            let store = IdempotencyStore(store: environment.store, configuration: environment.configuration, writer: writer)
            let key = try #require(IdempotencyKey(rawValue: "released-after-a-failure"))
            let merchant = harness.credentials.merchantID
            await #expect(throws: WorkFailed.self) {
                _ = try await store.idempotent(key: key, merchant: merchant, body: Data("{}".utf8)) {
                    throw WorkFailed()
                }
            }
            // The retry runs, instead of hearing 4091 "in progress" for 24 hours.
            let retry = try await store.idempotent(key: key, merchant: merchant, body: Data("{}".utf8)) {
                (.ok, Data(#"{"done":true}"#.utf8))
            }
            #expect(retry.status == .ok)
        }
    }
}
