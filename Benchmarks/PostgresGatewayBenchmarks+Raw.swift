import Foundation
import GRDB
import MPOSTestSupport
import SandboxGateway

extension PostgresGatewayBenchmarks {
    /// What one card sale commits, as a pgbench script: the statements the gateway's write
    /// runs (read from the server's statement log of a sale), with the values that must be
    /// unique per sale (idempotency key, KSN, transaction id) taken from a sequence and the
    /// card per client, as the gateway's load has a chip per connection. The gateway's own
    /// savepoints are left out: they are its machinery, not the writes.
    static let authorizationScript = """
        SELECT nextval('mpos_raw_sale') AS id \\gset
        BEGIN;
        INSERT INTO idempotencyKey (merchantId, key, requestSHA256, state, createdAt) VALUES (:merchant, 'raw-' || CAST(:id AS TEXT), :hash, 'inProgress', :now) ON CONFLICT DO NOTHING;
        INSERT INTO payment_ksn_seen (ksn) VALUES (int8send(CAST(:id AS BIGINT))) ON CONFLICT DO NOTHING;
        INSERT INTO payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc) VALUES ('raw-card-' || CAST(:client_id AS TEXT), 1, '261129', CAST(:id AS BIGINT)) ON CONFLICT (card_fingerprint, psn, transaction_date) DO UPDATE SET highest_atc = excluded.highest_atc WHERE payment_card_counter.highest_atc < excluded.highest_atc;
        SELECT amount_requested, currency, status, created_at FROM payment_transaction WHERE merchant_id = :merchant AND card_fingerprint = 'raw-card-' || CAST(:client_id AS TEXT) AND created_at >= :since AND amount_requested = 1234;
        SELECT spent FROM payment_card_spend WHERE card_fingerprint = 'raw-card-' || CAST(:client_id AS TEXT) AND day = :day;
        SELECT id FROM payment_batch WHERE merchant_id = :merchant AND status = 'open';
        INSERT INTO payment_transaction (id, merchant_id, kind, status, original_id, amount_requested, amount_approved, amount_captured, amount_refunded, amount_tip, amount_major, currency, response_code, auth_code, acquirer_message, batch_id, card_fingerprint, masked_pan, brand, expiry, cardholder_name, entry_mode, cvm, aid, application_label, tvr, tsi, issuer_authentication_data, customer_reference, external_id, descriptor, capture_mode, allow_partial, created_at, updated_at) VALUES ('raw_' || CAST(:id AS TEXT), :merchant, 'sale', 'approved', NULL, 1234, 1234, 1234, 0, 0, 12, 'EUR', '00', 'ZY6X6P', 'Approved', CAST(:batch AS BIGINT), 'raw-card-' || CAST(:client_id AS TEXT), '411111******1111', 'visa', '4912', 'CREDIT/VISA', 'chip', 'pin', 'A0000000031010', 'VISA CREDIT', '8000040000', '6800', '8551452480000000', NULL, NULL, NULL, 'completedSale', 0, :now, :now) RETURNING seq;
        SELECT * FROM payment_webhook_config WHERE merchant_id = :merchant AND enabled = 1;
        UPDATE idempotencyKey SET state = 'completed', httpStatus = 200, response = decode(:response, 'hex') WHERE merchantId = :merchant AND key = 'raw-' || CAST(:id AS TEXT);
        END;

        """

    /// Runs ``authorizationScript`` with pgbench on `database`'s server,
    /// ``rawTransactionsPerClient`` sales on each of ``GatewayBenchmarks/clients`` clients
    /// (prepared statements, two pgbench threads), and returns its transactions per second.
    static func rawWrites(
        bin: String, server: LocalPostgres, database: any GatewayDatabase, merchant: String, round: Int
    ) async throws -> Double {
        let now = timestamp(Date())
        let batch = try await database.write { db in
            // The sale ids' sequence and the merchant's open batch, made by the first round.
            if round > 0,
                let open = try db.fetchValue(
                    Int64.self, sql: "SELECT id FROM payment_batch WHERE merchant_id = ? AND status = 'open' ORDER BY id LIMIT 1",
                    arguments: [merchant])
            {
                return open
            }
            try db.execute(sql: "CREATE SEQUENCE IF NOT EXISTS mpos_raw_sale")
            return try db.fetchAll(
                sql: """
                    INSERT INTO payment_batch (merchant_id, status, opened_at, closed_at, transaction_count, net_amount)
                    VALUES (?, 'open', ?, NULL, 0, 0) RETURNING id
                    """, arguments: [merchant, now]
            ).first.map { $0["id"] as Int64 } ?? 0
        }
        return try pgbench(
            script: authorizationScript, bin: bin, server: server,
            defines: [
                "merchant": merchant, "hash": String(repeating: "ab", count: 32), "now": now,
                "since": timestamp(Date().addingTimeInterval(-300)), "day": String(now.prefix(10)), "batch": "\(batch)",
                // A stored answer the size of a sale's JSON.
                "response": String(repeating: "7b", count: 800),
            ])
    }

    /// Runs `script` with pgbench on the `bench` database of `server`, ``rawTransactionsPerClient``
    /// transactions on each of ``GatewayBenchmarks/clients`` clients (prepared statements, two
    /// pgbench threads), with `defines` as its variables, and returns its transactions per second.
    static func pgbench(script: String, bin: String, server: LocalPostgres, defines: [String: String]) throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-raw-\(UUID()).sql")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(bin)/pgbench")
        process.arguments =
            [
                "-h", "127.0.0.1", "-p", "\(server.port)", "-U", server.user, "-n", "-M", "prepared",
                "-c", "\(GatewayBenchmarks.clients)", "-j", "2", "-t", "\(rawTransactionsPerClient)", "-f", file.path,
            ] + defines.sorted { $0.key < $1.key }.flatMap { ["-D", "\($0.key)=\($0.value)"] } + ["bench"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A stuck run (a client waiting on a lock behind one pgbench never serves) fails
        // rather than hangs the benchmark.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(300))
            process.terminate()
        }
        defer { watchdog.cancel() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix { $0.isNumber || $0 == "." })
        else {
            throw BenchmarkInputMissing(name: "pgbench's figure (\(text.suffix(400)))", looked: [bin])
        }
        return tps
    }

    /// A date as the ledger stores it: `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    static func timestamp(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().dateSeparator(.dash)
            .time(includingFractionalSeconds: true).timeSeparator(.colon).dateTimeSeparator(.space)
        style.timeZone = .gmt
        return String(date.formatted(style).prefix(23))
    }
}
