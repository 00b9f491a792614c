import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import SandboxGateway

/// The gateway on PostgreSQL, measured in one run so the figures compare (issue 34):
///
/// - `postgres.durable_commit.throughput`: PostgreSQL doing the writes of one card
///   authorization raw, from `pgbench` at ``GatewayBenchmarks/clients`` clients: the statements
///   the gateway runs for a sale (idempotency claim and answer, KSN and ATC claims, duplicate
///   and spend reads, the ledger row with its triggers), one transaction each, on the same
///   tables, indexes and triggers, with durable commits. No HTTP, no JSON, no cryptography.
/// - `gateway.pg.authorize.throughput`: card authorizations per second through one gateway
///   instance on that database, 32 keep-alive clients with valid ARQCs, with its ratio to the
///   raw writes and the CPU per authorization of this process (the instance and the load
///   generator; PostgreSQL's processes are apart).
/// - `gateway.pg.two_instances.throughput`: the same load spread over two instances on the
///   same database, with its ratio to one instance and its CPU per authorization.
enum PostgresGatewayBenchmarks {
    static let names = [
        "postgres.durable_commit.throughput", "gateway.pg.authorize.throughput",
        "gateway.pg.two_instances.throughput",
    ]
    /// How many sales each pgbench client commits (`MPOS_BENCH_PGBENCH_TRANSACTIONS`, 40).
    static let rawTransactionsPerClient =
        Int(ProcessInfo.processInfo.environment["MPOS_BENCH_PGBENCH_TRANSACTIONS"] ?? "") ?? 40

    /// Runs the benchmarks whose names start with `prefix`; `false` when none does.
    static func run(prefix: String) async throws -> Bool {
        guard names.contains(where: { $0.hasPrefix(prefix) || prefix.hasPrefix($0) }) else { return false }
        guard let bin = LocalPostgres.binDirectory else {
            throw BenchmarkInputMissing(name: "PostgreSQL (initdb, pg_ctl, pgbench)", looked: ["/usr/lib/postgresql"])
        }
        let postgres = try LocalPostgres.start(durable: true)
        defer { postgres.stop() }
        let url = try PostgresURL(postgres.createDatabase("bench"), environment: [:])

        // One instance first: it migrates the database and bootstraps the merchant that the
        // raw writes use too.
        var configuration = SandboxGatewayConfiguration(port: 0, passwordHashRounds: 1_000, logLevel: .critical)
        configuration.databaseURL = url
        let first = try await SandboxGateway.start(configuration)
        guard let credentials = first.credentials else {
            await first.shutdown()
            throw BenchmarkInputMissing(name: "credentials", looked: [])
        }
        let raw: Double
        do {
            raw = try await rawWrites(bin: bin, server: postgres, database: first.environment.store.database,
                merchant: credentials.merchantID)
        } catch {
            await first.shutdown()
            throw error
        }
        emit(
            name: "postgres.durable_commit.throughput", unit: "commits/s", value: raw,
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "transactions_per_client": Double(rawTransactionsPerClient),
            ])

        let token = try GatewayBenchmarks.clientToken(port: first.port, credentials: credentials)
        let one = try await measure(ports: [first.port], token: token, salt: 1)
        emit(
            name: "gateway.pg.authorize.throughput", unit: "auth/s", value: one.rate,
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "raw_commits_per_s": raw,
                "ratio_to_raw": one.rate / raw, "cpu_us_per_authorization": one.cpu,
            ], count: one.count)

        let second = try await SandboxGateway.start(configuration)
        let two = try await measure(ports: [first.port, second.port], token: token, salt: 3)
        emit(
            name: "gateway.pg.two_instances.throughput", unit: "auth/s", value: two.rate,
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "raw_commits_per_s": raw,
                "ratio_to_one_instance": two.rate / one.rate, "cpu_us_per_authorization": two.cpu,
                "cpu_ratio_to_one_instance": two.cpu / one.cpu,
            ], count: two.count)
        await second.shutdown()
        await first.shutdown()
        return true
    }

    /// Card authorizations spread over `ports` after a warm-up: the rate and this process's
    /// CPU per authorization. `salt` gives the run's chips counters and DUKPT IDs of their own.
    static func measure(ports: [Int], token: String, salt: UInt32) async throws
        -> (rate: Double, cpu: Double, count: Int)
    {
        let clients = GatewayBenchmarks.clients
        // Every run on the same cards and days, so the duplicate check is off and the amounts
        // small (each card's day has 10,000.00 to spend, over four runs).
        func requests(count: Int, salt: UInt32) throws -> [[UInt8]] {
            let encoder = GatewayJSON.makeEncoder()
            return try GatewayBenchmarks.kernelRequests(
                amounts: GatewayBenchmarks.distinctAmounts(from: 1_00, count: count), salt: salt, duplicateCheck: false
            ).map { Array(try encoder.encode($0)) }
        }
        let warmUp = try requests(count: clients * GatewayBenchmarks.warmUpPerClient, salt: salt)
        _ = try await drive(ports: ports, token: token, bodies: warmUp)
        let bodies = try requests(count: clients * GatewayBenchmarks.requestsPerClient, salt: salt + 1)
        let cpuBefore = processCPUMicroseconds()
        let seconds = try await drive(ports: ports, token: token, bodies: bodies)
        let cpu = (processCPUMicroseconds() - cpuBefore) / Double(bodies.count)
        return (Double(bodies.count) / seconds, cpu, bodies.count)
    }

    /// Sends `bodies` as card authorizations over ``GatewayBenchmarks/clients`` connections
    /// spread over `ports`; every answer must be an approval. Returns the wall time.
    static func drive(ports: [Int], token: String, bodies: [[UInt8]]) async throws -> Double {
        let requests = bodies.map { body in
            httpRequestBytes(
                method: "POST", path: GatewayPaths.authorizeCard,
                headers: [
                    ("Content-Type", "application/json"), ("Authorization", "Bearer \(token)"),
                    ("Idempotency-Key", IdempotencyKey().rawValue),
                ], body: body)
        }
        let clients = GatewayBenchmarks.clients
        let marker = Array(#""status":"approved""#.utf8)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try LoopbackLoadGenerator.run(
                            ports: ports, connections: clients, requests: requests, answersContaining: marker
                        ).0
                    })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
