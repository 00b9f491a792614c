import Foundation
import Testing

/// `mpos sale`, `authorize`, `capture`, `refund`, `void`, `tip`, `cash`, `transactions` and
/// `stats` as a user runs them: the real binary, against an embedded sandbox or against a
/// `mpos gateway serve` and a `mpos reader emulate` started for the test.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PaymentCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try EMVDecodeBinaryTests.run(arguments)
    }

    /// The one JSON object a `--json` run printed.
    static func object(_ text: String) throws -> [String: Any] {
        let data = Data(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(text)")
    }

    static func expectNoPAN(_ run: (status: Int32, out: String, err: String)) {
        for pan in DemoCommandTests.testPANs { #expect(!run.out.contains(pan) && !run.err.contains(pan)) }
    }

    /// A `mpos gateway serve` on a temporary database and a free port, with the credentials
    /// it printed.
    final class ServedGateway {
        let process: Process
        let url: String
        let user: String
        let password: String
        /// The merchant's API key, as the first start printed it.
        let apiKey: String
        let directory: URL
        /// A file holding ``password`` (mode 0600), for `--password-file`.
        var passwordFile: String { directory.appendingPathComponent("password").path }

        /// Serves a fresh gateway, with `options` added to `mpos gateway serve`.
        init(_ options: [String] = []) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mpos-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            process = Process()
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = [
                "gateway", "serve", "--port", "0", "--db",
                directory.appendingPathComponent("gateway.sqlite").path,
            ] + options
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var user = "", password = "", url = "", apiKey = ""
            while url.isEmpty {
                guard let line = Self.readLine(out.fileHandleForReading) else { break }
                let words = line.split(separator: " ")
                if words.first == "user", words.count == 2 { user = String(words[1]) }
                if words.first == "password", words.count == 2 { password = String(words[1]) }
                if words.first == "api", words.count == 3 { apiKey = String(words[2]) }
                if line.hasPrefix("listening on ") { url = String(line.dropFirst("listening on ".count)) }
            }
            guard !url.isEmpty, !user.isEmpty, !password.isEmpty else {
                process.terminate()
                process.waitUntilExit()
                throw BinaryNotFound()
            }
            (self.url, self.user, self.password, self.apiKey) = (url, user, password, apiKey)
            _ = FileManager.default.createFile(
                atPath: passwordFile, contents: Data((password + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        }

        static func readLine(_ handle: FileHandle) -> String? {
            var line = Data()
            while true {
                let byte = handle.readData(ofLength: 1)
                if byte.isEmpty { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
                if byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }

        /// The gateway and its credentials, with a journal beside the gateway's database (not
        /// the user's own).
        var arguments: [String] {
            [
                "--gateway", url, "--user", user, "--password-file", passwordFile,
                "--journal", directory.appendingPathComponent("journal.sqlite").path,
            ]
        }

        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: directory)
            return process.terminationStatus
        }
    }

    // MARK: - Against an embedded sandbox

    @Test func anApprovedSaleExitsZeroAndPrintsJSON() throws {
        let run = try Self.run(["sale", "--amount", "12.34", "--currency", "EUR", "--json"])
        #expect(run.status == 0, "stderr: \(run.err)")
        let json = try Self.object(run.out)
        #expect(json["status"] as? String == "approved")
        #expect(json["kind"] as? String == "sale")
        #expect(json["requestedAmount"] as? Int == 1234 && json["approvedAmount"] as? Int == 1234)
        #expect(json["currency"] as? String == "EUR")
        #expect((json["transactionID"] as? String)?.hasPrefix("txn_") == true)
        #expect((json["authorizationCode"] as? String)?.count == 6)
        #expect(json["maskedPAN"] as? String == "411111******1111")
        #expect(json["error"] is NSNull)
        // The ECP seed's sale response fields.
        #expect(json["cardholderName"] as? String == "CREDIT/VISA")
        #expect(json["expiryMonth"] as? Int == 12 && json["expiryYear"] as? Int == 2049)
        #expect(json["authorizationResponseMessage"] as? String == "APPROVED")
        #expect((json["batchID"] as? String).flatMap(Int.init) != nil)
        #expect(json["acquirerMessage"] is String && json["applicationPreferredName"] is NSNull)
        Self.expectNoPAN(run)
    }

    @Test func aHumanSalePrintsASummaryAndTheCustomerReceipt() throws {
        let run = try Self.run(["sale", "--amount", "5", "--card", "visa-debit"])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("APPROVED  sale  5.00 EUR  txn_"))
        #expect(run.out.contains("CUSTOMER COPY"))
        Self.expectNoPAN(run)
    }

    @Test func aSaleWithABasketPrintsItsLinesAndTax() throws {
        let run = try Self.run([
            "sale", "--amount", "12.34", "--item", "Cappuccino:2:3.90:7", "--item", "Cheesecake:1:4.54:19",
            "--descriptor", "Corner Cafe", "--descriptor-suffix", "Table 4",
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
        for row in ["2 x Cappuccino", "7.80 EUR", "1 x Cheesecake", "Tax 7 %", "0.51 EUR", "Tax 19 %", "0.72 EUR"] {
            #expect(run.out.contains(row), "\(row)")
        }
        // A basket that does not add up, and lines that do not parse, never reach a reader.
        let short = try Self.run(["sale", "--amount", "12.00", "--item", "Cappuccino:2:3.90:7"])
        #expect(short.status == 1 && short.err.contains("adds up to 780"), "\(short.err)")
        for item in ["Cappuccino:two:3.90", "Cappuccino:2", ":1:1.00", "Cappuccino:1:abc", "Cappuccino:1:1.00:7.555"] {
            let bad = try Self.run(["sale", "--amount", "1.00", "--item", item])
            #expect(bad.status == 1 && bad.err.contains("invalid item '\(item)'"), "\(item): \(bad.err)")
        }
        let suffix = try Self.run(["sale", "--amount", "1.00", "--descriptor-suffix", "Table 4"])
        #expect(suffix.status == 1 && suffix.err.contains("needs a statementDescriptor"), "\(suffix.err)")
    }

    @Test func theDeclineAmountExitsTwo() throws {
        let run = try Self.run(["sale", "--amount", "10.00", "--currency", "EUR", "--json"])
        #expect(run.status == 2, "stderr: \(run.err)")
        let json = try Self.object(run.out)
        #expect(json["status"] as? String == "declined" && json["responseCode"] as? String == "05")
        #expect(json["approvedAmount"] as? Int == 0)
    }

    @Test func aCardholderCancelExitsThree() throws {
        let run = try Self.run(["sale", "--amount", "20.00"])
        #expect(run.status == 3, "stderr: \(run.err)")
        #expect(run.out.contains("CANCELLED  sale  20.00 EUR"))
    }

    @Test func malformedArgumentsExitOneWithAClearMessage() throws {
        let decimals = try Self.run(["sale", "--amount", "12.345", "--currency", "EUR"])
        #expect(decimals.status == 1 && decimals.err.contains("invalid amount '12.345'"))
        let words = try Self.run(["sale", "--amount", "twelve"])
        #expect(words.status == 1 && words.err.contains("invalid amount 'twelve'"))
        let zero = try Self.run(["sale", "--amount", "0.00"])
        #expect(zero.status == 1 && zero.err.contains("greater than zero"))
        let currency = try Self.run(["sale", "--amount", "1.00", "--currency", "XYZ"])
        #expect(currency.status == 1 && currency.err.contains("unknown currency 'XYZ'"))
        let reader = try Self.run(["sale", "--amount", "1.00", "--reader", "nowhere"])
        #expect(reader.status == 1 && reader.err.contains("--reader must be HOST:PORT"))
        let credentials = try Self.run(["void", "--transaction", "txn_1", "--gateway", "http://127.0.0.1:9"])
        #expect(credentials.status == 1 && credentials.err.contains("--user and its password"), "\(credentials.err)")
        let card = try Self.run(["sale", "--amount", "1.00", "--card", "no-such-card"])
        #expect(card.status == 1 && card.err.contains("unknown card 'no-such-card'"))
        let status = try Self.run(["transactions", "--status", "pending"])
        #expect(status.status == 1 && status.err.contains("invalid --status 'pending'"))
        let grouping = try Self.run(["stats", "--group-by", "hour"])
        #expect(grouping.status == 1 && grouping.err.contains("invalid --group-by 'hour'"))
        let date = try Self.run(["stats", "--from", "yesterday"])
        #expect(date.status == 1 && date.err.contains("invalid --from 'yesterday'"))
    }

    @Test func whatTheParserRefusesAlsoExitsOneWithOneLine() throws {
        let negative = try Self.run(["sale", "--amount", "-5.00", "--currency", "EUR"])
        #expect(negative.status == 1 && negative.err.contains("invalid --amount '-5.00'"), "\(negative.err)")
        let attached = try Self.run(["sale", "--amount=-5", "--currency", "EUR"])
        #expect(attached.status == 1 && attached.err.contains("'-5'"), "\(attached.err)")
        let empty = try Self.run(["sale", "--amount", ""])
        #expect(empty.status == 1 && empty.err.contains("invalid amount ''"), "\(empty.err)")
        let missing = try Self.run(["refund", "--transaction"])
        #expect(missing.status == 1 && missing.err.contains("--transaction"), "\(missing.err)")
        let unknown = try Self.run(["sale", "--amount", "1.00", "--colour", "red"])
        #expect(unknown.status == 1 && unknown.err.contains("--colour"), "\(unknown.err)")
        for run in [negative, attached, empty, missing, unknown] {
            #expect(run.out.isEmpty && run.err.split(separator: "\n").count == 1, "\(run.err)")
        }
        // Asking for help is not a mistake.
        let help = try Self.run(["sale", "--help"])
        #expect(help.status == 0 && help.out.contains("--amount"))
    }

    // MARK: - Against a served gateway and reader emulator

    @Test func aSaleIsRefundedInPartAndTheRefundVoided() throws {
        let gateway = try ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            _ = gateway.stop()
        }
        let remote = gateway.arguments + ["--reader", "127.0.0.1:\(emulator.port)"]
        let sale = try Self.run(["sale", "--amount", "40.00", "--json"] + remote)
        #expect(sale.status == 0, "stderr: \(sale.err)")
        let saleID = try #require(try Self.object(sale.out)["transactionID"] as? String)

        let refund = try Self.run(
            ["refund", "--transaction", saleID, "--amount", "15.00", "--json"] + gateway.arguments)
        #expect(refund.status == 0, "stderr: \(refund.err)")
        let refundJSON = try Self.object(refund.out)
        #expect(refundJSON["kind"] as? String == "refund" && refundJSON["approvedAmount"] as? Int == 1500)
        let refundID = try #require(refundJSON["transactionID"] as? String)

        let void = try Self.run(["void", "--transaction", refundID] + gateway.arguments)
        #expect(void.status == 0, "stderr: \(void.err)")
        #expect(void.out.contains("APPROVED  refundVoid"))

        // The gateway shows the sale, the (reversed) refund and its void.
        let list = try Self.run(["transactions", "--json"] + gateway.arguments)
        #expect(list.status == 0, "stderr: \(list.err)")
        let page = try Self.object(list.out)
        let items = try #require(page["items"] as? [[String: Any]])
        #expect(items.count == 3 && page["totalCount"] as? Int == 3)
        #expect(items.first { $0["id"] as? String == refundID }?["status"] as? String == "reversed")
        #expect(
            items.contains {
                $0["kind"] as? String == "refundVoid" && $0["originalID"] as? String == refundID
            })

        let reversed = try Self.run(["transactions", "--status", "reversed"] + gateway.arguments)
        #expect(reversed.status == 0 && reversed.out.contains(refundID) && !reversed.out.contains(saleID))

        // Refunding what cannot be refunded is an error the gateway explains.
        let tooMuch = try Self.run(
            ["refund", "--transaction", saleID, "--amount", "99.00"] + gateway.arguments)
        #expect(tooMuch.status == 1 && tooMuch.out.contains("FAILED  refund"))
        #expect(!tooMuch.err.isEmpty)
        Self.expectNoPAN(sale)
    }

    @Test func environmentHoldsTheServedGatewayToItsKind() throws {
        let gateway = try ServedGateway()
        defer { _ = gateway.stop() }
        // The served gateway is a sandbox: SBX lists its transactions.
        let sandbox = try Self.run(["transactions", "--environment", "SBX"] + gateway.arguments)
        #expect(sandbox.status == 0, "stderr: \(sandbox.err)")
        // PROD is refused before anything is sent: the URL is plain http.
        let plain = try Self.run(["transactions", "--environment", "PROD"] + gateway.arguments)
        #expect(plain.status == 1 && plain.err.contains("https only"), "\(plain.err)")
        let unknown = try Self.run(["transactions", "--environment", "staging"] + gateway.arguments)
        #expect(unknown.status == 1 && unknown.err.contains("not an environment"), "\(unknown.err)")
        let embedded = try Self.run(["sale", "--amount", "1.00", "--environment", "production"])
        #expect(embedded.status == 1, "\(embedded.err)")
    }

    @Test func anAuthorizationIsCapturedTippedCashAndReported() throws {
        let gateway = try ServedGateway()
        let emulator = try ReaderCommandTests.Emulator.start()
        defer {
            _ = emulator.stop()
            _ = gateway.stop()
        }
        let remote = gateway.arguments + ["--reader", "127.0.0.1:\(emulator.port)"]
        let hold = try Self.run(["authorize", "--amount", "50.00", "--json"] + remote)
        #expect(hold.status == 0, "stderr: \(hold.err)")
        let holdJSON = try Self.object(hold.out)
        #expect(holdJSON["kind"] as? String == "authorization")
        let holdID = try #require(holdJSON["transactionID"] as? String)

        let capture = try Self.run(
            ["capture", "--transaction", holdID, "--amount", "42.00", "--json"] + gateway.arguments)
        #expect(capture.status == 0, "stderr: \(capture.err)")
        let captureJSON = try Self.object(capture.out)
        #expect(captureJSON["kind"] as? String == "capture" && captureJSON["approvedAmount"] as? Int == 4200)
        let again = try Self.run(["capture", "--transaction", holdID] + gateway.arguments)
        #expect(again.status == 1)

        let sale = try Self.run(["sale", "--amount", "25.00", "--tip-adjustable", "--json"] + remote)
        let saleID = try #require(try Self.object(sale.out)["transactionID"] as? String)
        let tip = try Self.run(
            ["tip", "--transaction", saleID, "--amount", "3.50", "--json"] + gateway.arguments)
        #expect(tip.status == 0, "stderr: \(tip.err)")
        #expect(try Self.object(tip.out)["kind"] as? String == "tipAdjustment")

        let cash = try Self.run(["cash", "--amount", "8.00", "--json"] + gateway.arguments)
        #expect(cash.status == 0, "stderr: \(cash.err)")
        let cashKind = try Self.object(cash.out)["kind"] as? String
        #expect(cashKind == "cash")

        let credit = try Self.run(["refund", "--amount", "7.50", "--json"] + remote)
        #expect(credit.status == 0, "stderr: \(credit.err)")
        let creditJSON = try Self.object(credit.out)
        #expect(creditJSON["kind"] as? String == "refund" && creditJSON["approvedAmount"] as? Int == 750)

        let list = try Self.run(["transactions", "--page-size", "100", "--json"] + gateway.arguments)
        let items = try #require(try Self.object(list.out)["items"] as? [[String: Any]])
        let tipped = try #require(items.first { $0["id"] as? String == saleID })
        #expect(tipped["tipAmount"] as? Int == 350 && tipped["totalAmount"] as? Int == 2850)
        #expect(
            items.contains { $0["kind"] as? String == "capture" && $0["originalID"] as? String == holdID })
        #expect(items.contains { $0["kind"] as? String == "cash" && $0["totalAmount"] as? Int == 800 })

        let stats = try Self.run(["stats", "--group-by", "year", "--json"] + gateway.arguments)
        #expect(stats.status == 0, "stderr: \(stats.err)")
        let statsJSON = try Self.object(stats.out)
        #expect(statsJSON["grouping"] as? String == "year" && statsJSON["currency"] as? String == "EUR")
        let buckets = try #require(statsJSON["buckets"] as? [[String: Any]])
        #expect(buckets.count == 1)
        #expect((buckets.first?["count"] as? Int ?? 0) > 0 && (buckets.first?["turnover"] as? Int ?? 0) > 0)
        let human = try Self.run(["stats"] + gateway.arguments)
        #expect(
            human.status == 0 && human.out.contains("statistics by day in EUR")
                && human.out.contains("turnover"))
    }
}
