import EMV
import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import ReaderSimulator
import SandboxCards
import SandboxGateway

/// Gateway figures, measured in one run so they compare:
///
/// - `sqlite.durable_commit.throughput`: single-row INSERT transactions per second on a
///   database opened exactly as the gateway opens its own (``GatewayStore``: WAL,
///   `synchronous=FULL`, busy timeout), one writer, one row per commit.
/// - `gateway.authorize.throughput`: card authorisations per second from 32 concurrent
///   keep-alive clients over loopback HTTP (connections kept busy by one `poll(2)` thread,
///   ``LoopbackLoadGenerator``, as wrk does), each request with a fresh, valid ARQC and DUKPT
///   envelope made by the reader simulator's kernel; with the raw commit rate of the same run
///   and their ratio, and the process's CPU time per authorization (server, clients and
///   kernel together: `cpu_us_per_auth`), which holds up when other work shares the machine.
/// - `gateway.authorize.latency`: the same requests' latency, p50 and p99 in milliseconds.
/// - `gateway.health.throughput`: `GET /health` the same way, with its CPU per request: the
///   HTTP path's own cost, under every other figure.
enum GatewayBenchmarks {
    /// Concurrent clients: 32, or `MPOS_BENCH_CLIENTS` to study scaling.
    static let clients = ProcessInfo.processInfo.environment["MPOS_BENCH_CLIENTS"].flatMap(Int.init) ?? 32
    static let requestsPerClient = Int(ProcessInfo.processInfo.environment["MPOS_BENCH_REQUESTS"] ?? "") ?? 60
    static let warmUpPerClient = 5
    static let commits = 1_500

    /// Runs the benchmarks whose names start with `prefix`; `false` when none does.
    static func run(prefix: String) async throws -> Bool {
        let names = [
            "gateway.authorize.throughput", "gateway.authorize.latency", "gateway.health.throughput",
            "sqlite.durable_commit.throughput",
        ]
        guard names.contains(where: { $0.hasPrefix(prefix) || prefix.hasPrefix($0) }) else { return false }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mposkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let commitRate = try durableCommitRate(path: directory.appendingPathComponent("commits.sqlite").path)
        if "sqlite.durable_commit.throughput".hasPrefix(prefix) || prefix.hasPrefix("sqlite") {
            emit(
                name: "sqlite.durable_commit.throughput", unit: "commits/s", value: commitRate, count: commits
            )
        }
        guard "gateway.authorize".hasPrefix(prefix) || prefix.hasPrefix("gateway") else { return true }

        let gateway = try await SandboxGateway.start(
            SandboxGatewayConfiguration(
                port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path,
                passwordHashRounds: 1_000, logLevel: .critical,
                groupCommit: ProcessInfo.processInfo.environment["MPOS_GATEWAY_GROUP_COMMIT"] != "0"))
        defer { Task { await gateway.shutdown() } }
        // What the reports' write-side structures cost an authorization: without the daily
        // totals' triggers, and with the narrow (merchant, time) index instead of the covering one.
        let environment = ProcessInfo.processInfo.environment
        try await gateway.environment.store.database.write { db in
            if environment["MPOS_BENCH_WITHOUT_DAILY_TOTALS"] == "1" {
                for trigger in ["insert", "update", "delete"] {
                    try db.execute(sql: "DROP TRIGGER payment_daily_change_\(trigger)")
                }
            }
            if environment["MPOS_BENCH_NARROW_TIME_INDEX"] == "1" {
                try db.execute(sql: "DROP INDEX payment_transaction_merchant_time_covering")
                try db.execute(
                    sql: "CREATE INDEX payment_transaction_merchant_time ON payment_transaction (merchant_id, created_at)")
            }
        }
        guard let credentials = gateway.credentials else {
            throw BenchmarkInputMissing(name: "credentials", looked: [])
        }
        let token = try clientToken(port: gateway.port, credentials: credentials)

        let authorizations = try await measureAuthorizations(port: gateway.port, token: token)
        let rate = authorizations.rate
        emit(
            name: "gateway.authorize.throughput", unit: "auth/s", value: rate,
            extra: [
                "clients": Double(clients), "raw_commits_per_s": commitRate,
                "percent_of_raw_commits": 100 * rate / commitRate,
                // Server, clients and kernel together, per authorization.
                "cpu_us_per_auth": authorizations.cpuPerAuthorization,
            ],
            count: authorizations.latencies.count)
        let sorted = authorizations.latencies.sorted()
        emit(
            name: "gateway.authorize.latency", unit: "ms", value: percentile(sorted, 0.5),
            extra: [
                "p50": percentile(sorted, 0.5), "p90": percentile(sorted, 0.9), "p99": percentile(sorted, 0.99),
                "p999": percentile(sorted, 0.999), "min": sorted.first ?? 0,
            ], count: sorted.count)
        try await emitHealthFloor(port: gateway.port)
        return true
    }

    /// Card authorizations from ``clients`` connections after a warm-up (kernel salts 0 and 1):
    /// the rate, the CPU per authorization and every latency.
    static func measureAuthorizations(port: Int, token: String) async throws
        -> (rate: Double, cpuPerAuthorization: Double, latencies: [Double])
    {
        let warmUp = try makeRequests(count: clients * warmUpPerClient, salt: 0, firstAmount: 1_00)
        _ = try await drive(port: port, token: token, bodies: warmUp)
        let bodies = try makeRequests(count: clients * requestsPerClient, salt: 1, firstAmount: 10_00)
        let cpuBefore = processCPUMicroseconds()
        let (seconds, latencies) = try await drive(port: port, token: token, bodies: bodies)
        let cpuPerAuthorization = (processCPUMicroseconds() - cpuBefore) / Double(bodies.count)
        return (Double(bodies.count) / seconds, cpuPerAuthorization, latencies)
    }

    /// `gateway.health.throughput`: `GET /health` through the same clients, server and loopback,
    /// with no body, database or crypto: what the HTTP path alone costs, the floor under
    /// any authorization figure on this machine.
    static func emitHealthFloor(port: Int) async throws {
        let request = httpRequestBytes(method: "GET", path: GatewayPaths.health, headers: [], body: [])
        let requests = [[UInt8]](repeating: request, count: clients * requestsPerClient * 2)
        _ = try await drive(port: port, requests: Array(requests.prefix(clients * warmUpPerClient)))
        let cpuBefore = processCPUMicroseconds()
        let (seconds, _) = try await drive(port: port, requests: requests)
        emit(
            name: "gateway.health.throughput", unit: "req/s", value: Double(requests.count) / seconds,
            extra: [
                "clients": Double(clients),
                "cpu_us_per_request": (processCPUMicroseconds() - cpuBefore) / Double(requests.count),
            ], count: requests.count)
    }

    /// Single-row INSERT transactions per second with the gateway's pragmas.
    static func durableCommitRate(path: String) throws -> Double {
        let pool = try SQLiteGatewayDatabase(path: path).pool
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE bench_commit (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        }
        for i in 0..<50 {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO bench_commit (payload) VALUES (?)", arguments: ["w\(i)"])
            }
        }
        let start = monotonicNanoseconds()
        for i in 0..<commits {
            try pool.write { db in
                try db.execute(sql: "INSERT INTO bench_commit (payload) VALUES (?)", arguments: ["row \(i)"])
            }
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return Double(commits) / seconds
    }

    /// A client token minted with the merchant's API key, as an SDK gets one from its
    /// merchant's backend; payments then authenticate with it.
    static func clientToken(port: Int, credentials: SandboxCredentials) throws -> String {
        let client = try LoopbackHTTPClient(port: port)
        let body = try GatewayJSON.makeEncoder().encode(ClientTokenRequest(lifetimeSeconds: 3600))
        let (status, reply) = try client.send(
            method: "POST", path: GatewayPaths.clientTokens,
            headers: [("Content-Type", "application/json"), (GatewayHeaders.apiKey, credentials.apiKey)],
            body: Array(body))
        guard status == 200 || status == 201 else {
            throw LoopbackHTTPClient.Failure(description: "client token answered \(status)")
        }
        return try GatewayJSON.makeDecoder().decode(ClientToken.self, from: Data(reply)).token
    }

    /// Authorisation bodies with valid cryptograms, spread over several cards so no card
    /// runs out of its daily balance, each with its own amount (``distinctAmounts(from:count:)``)
    /// so that the gateway's duplicate check, on as it is by default, finds nothing to refuse.
    static func makeRequests(count: Int, salt: UInt32, firstAmount: Int64) throws -> [[UInt8]] {
        let encoder = GatewayJSON.makeEncoder()
        return try kernelRequests(amounts: distinctAmounts(from: firstAmount, count: count), salt: salt)
            .map { Array(try encoder.encode($0)) }
    }

    /// Card sales for `amounts`, each made by the reader simulator's kernel on one of
    /// ``clients`` chips: with an ARQC (as sent online), or with `offline` the TC the card
    /// gives at its second GENERATE AC when the terminal answers "unable to go online" (`Z3`),
    /// exactly as a stored offline sale holds it; the sandbox issuer verifies either.
    static func kernelRequests(
        amounts: [Int64], salt: UInt32, offline: Bool = false, duplicateCheck: Bool = true
    ) throws -> [AuthorizeCardRequest] {
        let cards = ["visa-credit", "mastercard-2series", "discover", "unionpay", "amex", "signature"]
            .compactMap {
                SandboxCards.card(id: $0)
            }
        // One chip per connection (the load generator sends request i on connection
        // i % clients, one at a time), so each chip's ATC reaches the gateway in order. The
        // issuer keeps a card's highest ATC per transaction date (9A): connections that share
        // a card each take a date of their own. `salt` starts the counters above an earlier
        // run's and gives each run its own DUKPT derivation IDs.
        let now = Date()
        var kernels = try (0..<clients).map { index in
            EMVKernel(
                card: try SimulatedCard(card: cards[index % cards.count], atc: UInt16(salt) * 1_000),
                reader: try EMVKernel.sandboxReader(derivationID: 100 + UInt32(index) + salt * 1_000),
                terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
        }
        let dates = (0..<clients).map { now.addingTimeInterval(-86_400 * Double($0 / cards.count)) }
        var requests: [AuthorizeCardRequest] = []
        requests.reserveCapacity(amounts.count)
        for (i, amount) in amounts.enumerated() {
            let k = i % kernels.count
            var step = kernels[k].start(
                KernelTransaction(amount: amount, currency: .eur, date: dates[k], entryMode: .chip))
            var data: AuthorizationData?
            var emvData: [UInt8]?
            for _ in 0..<5 {
                switch step {
                case .selectApplication: step = kernels[k].selectApplication(at: 0)
                case .enterPIN: step = kernels[k].enterPIN(SandboxCards.pin)
                case .goOnline(let authorization) where offline:
                    data = authorization
                    step = kernels[k].complete(
                        hostApproved: false, responseCode: EMVKernel.unableToGoOnlineResponseCode,
                        issuerAuthenticationData: nil)
                case .goOnline(let authorization):
                    data = authorization
                    emvData = authorization.emvData
                    kernels[k].cancel()
                case .completed(let outcome) where outcome.cryptogramType == .tc:
                    emvData = outcome.emvData
                default: break
                }
                if emvData != nil { break }
            }
            guard let data, let emvData else {
                throw LoopbackHTTPClient.Failure(description: "kernel gave no cryptogram to send: \(step)")
            }
            requests.append(
                AuthorizeCardRequest(
                    kind: .sale,
                    parameters: PaymentParameters(amount: amount, currency: .eur, duplicateCheck: duplicateCheck),
                    emvData: Hex.encode(emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
                    ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm))
        }
        return requests
    }

    /// `count` amounts from `start` upwards, each once, leaving out every amount that plays a
    /// sandbox scenario (a decline, a refusal, a timeout...).
    static func distinctAmounts(from start: Int64, count: Int) -> [Int64] {
        var amounts: [Int64] = []
        amounts.reserveCapacity(count)
        var next = start
        while amounts.count < count {
            if SandboxScenario.forAmount(minor: next) == nil { amounts.append(next) }
            next += 1
        }
        return amounts
    }

    /// Sends `bodies` as card authorizations from `clients` concurrent keep-alive
    /// connections; returns the wall time and every request's latency in ms.
    static func drive(port: Int, token: String, bodies: [[UInt8]]) async throws -> (Double, [Double]) {
        // Requests are made up front, keys included, as a load generator such as wrk does.
        let authorization = "Bearer \(token)"
        let requests = bodies.map { body in
            httpRequestBytes(
                method: "POST", path: GatewayPaths.authorizeCard,
                headers: [
                    ("Content-Type", "application/json"), ("Authorization", authorization),
                    ("Idempotency-Key", IdempotencyKey().rawValue),
                ], body: body)
        }
        return try await drive(port: port, requests: requests, answersContaining: Array(#""status":"approved""#.utf8))
    }

    /// Sends each of `requests` over `clients` concurrent connections, from one thread of
    /// its own (``LoopbackLoadGenerator``); every answer must be 200.
    static func drive(
        port: Int, requests: [[UInt8]], answersContaining marker: [UInt8]? = nil
    ) async throws -> (Double, [Double]) {
        let clients = self.clients
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try LoopbackLoadGenerator.run(
                            port: port, connections: clients, requests: requests, answersContaining: marker)
                    })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

extension GatewayBenchmarks {
    /// `gateway.issuer.verify`: one sandbox issuer verification and decision (DUKPT envelope
    /// opened, ARQC checked, decision with ARPC), the CPU part of every authorisation.
    static func issuerBenchmark() throws -> Benchmark {
        let card = SandboxCards.card(id: "visa-credit")!
        var kernel = EMVKernel(
            card: try SimulatedCard(card: card), reader: try EMVKernel.sandboxReader(derivationID: 7),
            terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
        var step = kernel.start(KernelTransaction(amount: 1_00, currency: .eur, entryMode: .chip))
        if case .enterPIN = step { step = kernel.enterPIN(SandboxCards.pin) }
        guard case .goOnline(let data) = step else {
            throw LoopbackHTTPClient.Failure(description: "kernel did not go online: \(step)")
        }
        let issuer = SandboxIssuer()
        return Benchmark(
            name: "gateway.issuer.verify", unit: "ns",
            run: { count in
                var total = 0
                for _ in 0..<count {
                    let verified = try issuer.verify(
                        emvData: data.emvData, encryptedCardData: data.encryptedCardData, ksn: data.ksn)
                    let decision = issuer.decide(
                        verified, amount: 1_00, currency: .eur, now: Date(), allowPartial: false,
                        spentSoFar: 0)
                    total &+= decision.responseCode.count
                }
                return total
            }, batch: 20, batches: 50)
    }
}
