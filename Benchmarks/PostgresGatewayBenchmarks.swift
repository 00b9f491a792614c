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
/// - `postgres.minimal_sale.throughput`: the yardstick (issue 45): pgbench at the same clients
///   doing only the inserts a card sale cannot do without (``minimalSaleScript``), each sale its
///   own durable transaction, on copies of the gateway's tables without its triggers.
/// - `gateway.pg.authorize.throughput`: card authorizations per second through one gateway
///   instance on that database, 32 keep-alive clients with valid ARQCs, with its ratio to the
///   raw writes and to the minimal sale, and the CPU per authorization of this process (the
///   instance and the load generator; PostgreSQL's processes are apart).
/// - `gateway.pg.two_instances.throughput`: the same load spread over two instances on the
///   same database, with its ratio to one instance and its CPU per authorization.
enum PostgresGatewayBenchmarks {
    static let names = [
        "postgres.durable_commit.throughput", "postgres.minimal_sale.throughput", "gateway.pg.authorize.throughput",
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
        // `MPOS_BENCH_PG_STATEMENT_LOG=FILE`: the server logs every statement with its time and
        // backend, and the log is kept at FILE (statements per sale, round trips, commits).
        let statementLog = ProcessInfo.processInfo.environment["MPOS_BENCH_PG_STATEMENT_LOG"]
        if statementLog != nil {
            try logEveryStatement(bin: bin, server: postgres)
        }
        defer {
            if let statementLog {
                try? FileManager.default.removeItem(atPath: statementLog)
                try? FileManager.default.copyItem(
                    at: postgres.directory.appendingPathComponent("server.log"), to: URL(fileURLWithPath: statementLog))
            }
            postgres.stop()
        }
        let url = try PostgresURL(postgres.createDatabase("bench"), environment: [:])

        // One instance first: it migrates the database and bootstraps the merchant that the
        // raw writes use too.
        var configuration = SandboxGatewayConfiguration(port: 0, passwordHashRounds: 1_000, logLevel: .critical)
        configuration.databaseURL = url
        // `MPOS_BENCH_PG_PREPARED=256`: prepared statements on (off by default), for a paired comparison.
        if let prepared = Int(ProcessInfo.processInfo.environment["MPOS_BENCH_PG_PREPARED"] ?? "") {
            configuration.postgres.preparedStatementsPerConnection = prepared
        }
        // `MPOS_BENCH_PG_GROUP_LANES=N`: each instance's group-commit connections (default 1).
        if let lanes = Int(ProcessInfo.processInfo.environment["MPOS_BENCH_PG_GROUP_LANES"] ?? "") {
            configuration.postgres.groupCommitLanes = lanes
        }
        let first = try await SandboxGateway.start(configuration)
        guard let credentials = first.credentials else {
            await first.shutdown()
            throw BenchmarkInputMissing(name: "credentials", looked: [])
        }
        // Raw writes, one instance and two instances take turns, round after round, and each
        // figure is the median of its rounds: on a shared machine a few seconds' run varies by
        // a fifth, and neighbours in time compare better than runs minutes apart.
        var raws: [Double] = []
        var minimals: [Double] = []
        var ones: [(rate: Double, cpu: Double, count: Int)] = []
        var twos: [(rate: Double, cpu: Double, count: Int)] = []
        var second: RunningGateway?
        do {
            let database = first.environment.store.database
            let token = try GatewayBenchmarks.clientToken(port: first.port, credentials: credentials)
            second = try await SandboxGateway.start(configuration)
            for round in 0..<rounds {
                raws.append(
                    try await rawWrites(
                        bin: bin, server: postgres, database: database, merchant: credentials.merchantID, round: round))
                minimals.append(
                    try await minimalSales(bin: bin, server: postgres, database: database, merchant: credentials.merchantID))
                // Each run's chips count on from the last's (salts grow with the rounds).
                let salt = UInt32(1 + 4 * round)
                ones.append(try await measure(ports: [first.port], token: token, salt: salt))
                twos.append(try await measure(ports: [first.port, second!.port], token: token, salt: salt + 2))
            }
        } catch {
            await second?.shutdown()
            await first.shutdown()
            throw error
        }
        await second?.shutdown()
        await first.shutdown()

        let raw = emitPgbench("postgres.durable_commit.throughput", unit: "commits/s", rounds: raws)
        let minimal = emitPgbench("postgres.minimal_sale.throughput", unit: "sales/s", rounds: minimals)
        let one = median(ones.map(\.rate))
        emit(
            name: "gateway.pg.authorize.throughput", unit: "auth/s", value: one,
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "raw_commits_per_s": raw, "rounds": Double(rounds),
                "ratio_to_raw": median(zip(ones, raws).map { $0.rate / $1 }),
                "minimal_sales_per_s": minimal,
                "ratio_to_minimal_sale": median(zip(ones, minimals).map { $0.rate / $1 }),
                "cpu_us_per_authorization": median(ones.map(\.cpu)),
                "min": ones.map(\.rate).min() ?? 0, "max": ones.map(\.rate).max() ?? 0,
            ], count: ones.map(\.count).reduce(0, +))
        emit(
            name: "gateway.pg.two_instances.throughput", unit: "auth/s", value: median(twos.map(\.rate)),
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "raw_commits_per_s": raw, "rounds": Double(rounds),
                "ratio_to_one_instance": median(zip(twos, ones).map { $0.rate / $1.rate }),
                "cpu_us_per_authorization": median(twos.map(\.cpu)),
                "cpu_ratio_to_one_instance": median(zip(twos, ones).map { $0.cpu / $1.cpu }),
                "min": twos.map(\.rate).min() ?? 0, "max": twos.map(\.rate).max() ?? 0,
            ], count: twos.map(\.count).reduce(0, +))
        return true
    }

    /// Makes `server` log every statement with its duration, the time and its backend.
    static func logEveryStatement(bin: String, server: LocalPostgres) throws {
        for setting in [
            "ALTER SYSTEM SET log_min_duration_statement = 0", "ALTER SYSTEM SET log_line_prefix = '%m [%p] %a '",
            "SELECT pg_reload_conf()",
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "\(bin)/psql")
            process.arguments = ["-h", "127.0.0.1", "-p", "\(server.port)", "-U", server.user, "-q", "-c", setting, "postgres"]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkInputMissing(name: "psql: \(setting)", looked: [bin]) }
        }
    }

    /// Emits a pgbench line: the median of its `rounds`, with their extremes; returns the median.
    static func emitPgbench(_ name: String, unit: String, rounds values: [Double]) -> Double {
        let value = median(values)
        emit(
            name: name, unit: unit, value: value,
            extra: [
                "clients": Double(GatewayBenchmarks.clients), "transactions_per_client": Double(rawTransactionsPerClient),
                "rounds": Double(rounds), "min": values.min() ?? 0, "max": values.max() ?? 0,
            ])
        return value
    }

    /// How many rounds of raw, one-instance and two-instance runs (`MPOS_BENCH_PG_ROUNDS`, 3).
    static let rounds = max(1, Int(ProcessInfo.processInfo.environment["MPOS_BENCH_PG_ROUNDS"] ?? "") ?? 3)

    /// The middle value (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Card authorizations spread over `ports` after a warm-up: the rate and this process's
    /// CPU per authorization. `salt` gives the run's chips counters and DUKPT IDs of their own.
    static func measure(ports: [Int], token: String, salt: UInt32) async throws
        -> (rate: Double, cpu: Double, count: Int)
    {
        let clients = GatewayBenchmarks.clients
        // Every run on the same cards and days, so the duplicate check is off and the amounts
        // small, 1.00 to 2.00 over and over (each card's day has 10,000.00 to spend, over all
        // the rounds).
        let cycle = GatewayBenchmarks.distinctAmounts(from: 1_00, count: 80)
        func requests(count: Int, salt: UInt32) throws -> [[UInt8]] {
            let encoder = GatewayJSON.makeEncoder()
            return try GatewayBenchmarks.kernelRequests(
                amounts: (0..<count).map { cycle[$0 % cycle.count] }, salt: salt, duplicateCheck: false
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
