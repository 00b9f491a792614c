import Foundation
import TerminalAPI
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mpos terminal emulate` and `mpos nexo send` as real processes: each request file of
/// Adyen's mock terminal, posted to the emulator, answers with the `Result`, `ErrorCondition`
/// and refusal reason of the matching mock response file.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct TerminalEmulateCommandTests {
    static let poiID = "V400m-123456789"
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("TerminalAPITests/Fixtures/adyen-mock-terminal-api")

    /// A started `mpos terminal emulate` on a free port.
    struct Emulator {
        let process: Process
        let url: String

        static func start(_ extra: [String] = []) throws -> Emulator {
            let process = Process()
            process.executableURL = try EMVDecodeBinaryTests.mposBinary()
            process.arguments = ["terminal", "emulate", "--port", "0", "--poi-id", poiID] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let prefix = "listening on "
            while let line = PaymentCommandTests.ServedGateway.readLine(out.fileHandleForReading) {
                if line.hasPrefix(prefix) {
                    return Emulator(process: process, url: String(line.dropFirst(prefix.count)))
                }
            }
            process.terminate()
            throw BinaryNotFound()
        }

        func stop() -> Int32 {
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// A mock request file's text with a fresh header ServiceID (the files share one, and a
    /// repeated ServiceID is answered, not performed again), the ServiceID its
    /// `MessageReference` names, and other replacements made in order.
    static func request(
        _ name: String, serviceID: String, reference: String? = nil, replacing: [(String, String)] = []
    ) throws -> String {
        var text = try String(contentsOf: fixtures.appendingPathComponent("\(name).json"), encoding: .utf8)
        // The header is indented by six spaces in every file, a message reference by eight.
        text = text.replacingOccurrences(
            of: "\n      \"ServiceID\": \"1234567890AB\"", with: "\n      \"ServiceID\": \"\(serviceID)\"")
        if let reference {
            text = text.replacingOccurrences(
                of: "\n        \"ServiceID\": \"1234567890AB\"",
                with: "\n        \"ServiceID\": \"\(reference)\"")
        }
        for (old, new) in replacing { text = text.replacingOccurrences(of: old, with: new) }
        return text
    }

    /// The mock terminal's `Response` in a response file.
    static func expected(_ name: String) throws -> Response {
        try #require(
            try body(
                NexoCoder.decodeResponse(Data(contentsOf: fixtures.appendingPathComponent("\(name).json")))))
    }

    static func body(_ response: SaleToPOIResponse) -> Response? {
        response.paymentResponse?.response ?? response.reversalResponse?.response
            ?? response.transactionStatusResponse?.response
    }

    /// Runs `mpos nexo send` with `text` as the request file, on a thread of its own: waiting
    /// for a process must not hold one of the few threads that every concurrent test shares.
    static func send(_ text: String, to emulator: Emulator, _ extra: [String] = []) async throws
        -> (status: Int32, response: SaleToPOIResponse?, err: String)
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try blockingSend(text, to: emulator, extra) }) }
                .start()
        }
    }

    static func blockingSend(_ text: String, to emulator: Emulator, _ extra: [String] = []) throws
        -> (status: Int32, response: SaleToPOIResponse?, err: String)
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nexo-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try EMVDecodeBinaryTests.run(
            ["nexo", "send", "--terminal", emulator.url] + extra + [file.path])
        return (run.status, try? NexoCoder.decodeResponse(Data(run.out.utf8)), run.err)
    }

    static func expectSame(_ ours: Response?, _ theirs: Response, _ name: String) {
        #expect(ours?.result == theirs.result, "\(name)")
        #expect(ours?.errorCondition == theirs.errorCondition, "\(name)")
        #expect(
            ours?.additionalResponse?.refusalReason == theirs.additionalResponse?.refusalReason, "\(name)")
    }

    @Test func everyMockPaymentStatusAndReversalAnswersAsTheMockTerminal() async throws {
        let emulator = try Emulator.start()
        let payments = [
            "payment__paymentRequest", "payment__124_paymentNotEnoughBalanceRequest",
            "payment__125_paymentCardBlockedRequest", "payment__126_paymentCardExpiredRequest",
            "payment__127_paymentInvalidAmountRequest", "payment__128_paymentInvalidCardRequest",
            "payment__134_paymentWrongPinRequest",
        ]
        var approved: String?
        for (index, name) in payments.enumerated() {
            let sent = try await Self.send(try Self.request(name, serviceID: "P\(index)"), to: emulator)
            let theirs = try Self.expected(name.replacingOccurrences(of: "Request", with: "Response"))
            Self.expectSame(sent.response.flatMap(Self.body), theirs, name)
            #expect(sent.status == (theirs.result == .success ? 0 : 2), "\(name): \(sent.err)")
            if index == 0 {
                approved = sent.response?.paymentResponse?.poiData.poiTransactionID.transactionID
            }
        }
        let id = try #require(approved)
        // The status of the approved payment, then its reversal by the POITransactionID it gave.
        let status = try await Self.send(
            try Self.request(
                "paymentTransactionStatus__paymentTransactionStatusRequest", serviceID: "T0", reference: "P0"),
            to: emulator)
        Self.expectSame(
            status.response.flatMap(Self.body),
            try Self.expected("paymentTransactionStatus__paymentTransactionStatusResponse"), "status")
        #expect(
            status.response?.transactionStatusResponse?.repeatedMessageResponse?.repeatedResponseMessageBody
                .paymentResponse?.poiData.poiTransactionID.transactionID == id)
        let reversal = try await Self.send(
            try Self.request(
                "reversal__reversalRequest", serviceID: "V1",
                replacing: [
                    (
                        "\"TransactionID\": \"21f1268f-9126-4bce-b127-9c2d5ffa024e\",\n          \"TimeStamp\": \"2023-05-12",
                        "\"TransactionID\": \"\(id)\",\n          \"TimeStamp\": \"2023-05-12"
                    )
                ]),
            to: emulator)
        Self.expectSame(
            reversal.response.flatMap(Self.body), try Self.expected("reversal__reversalResponse"), "reversal")
        #expect(reversal.status == 0, "\(reversal.err)")
        #expect(emulator.stop() == 0)
    }

    /// A payment waiting for a card (80.59: the reader waits 59 s) is in progress: another
    /// payment is Busy, and an Abort ends it as the mock terminal's aborted payment.
    @Test func busyAndAbortWhileAPaymentWaitsForTheCard() async throws {
        let emulator = try Emulator.start()
        let slow = try Self.request(
            "payment__paymentRequest", serviceID: "SLOW",
            replacing: [("\"RequestedAmount\": 1.00", "\"RequestedAmount\": 80.59")])
        // Unstructured: `mpos nexo send` waits until the payment ends, while the test drives it.
        let running = Task { try await Self.send(slow, to: emulator) }
        let statusOfSlow = try Self.request(
            "paymentTransactionStatus__paymentTransactionStatusRequest", serviceID: "Q", reference: "SLOW")
        var inProgress = false
        for _ in 0..<2_000 where !inProgress {
            let answer = try await Self.post(statusOfSlow, to: emulator)
            inProgress = answer.flatMap(Self.body)?.errorCondition == .inProgress
        }
        #expect(inProgress)
        let busy = try await Self.send(
            try Self.request("payment__paymentRequest", serviceID: "SECOND"), to: emulator)
        Self.expectSame(
            busy.response.flatMap(Self.body), try Self.expected("paymentBusy__paymentBusyResponse"), "busy")
        let abort = try Self.request(
            "abortPayment__abortPaymentRequest", serviceID: "ABORT", reference: "SLOW")
        // The reader takes a cancel once it reports waiting for the card: abort until the payment ends.
        var ended = false
        for _ in 0..<2_000 where !ended {
            _ = try await Self.post(abort, to: emulator)
            ended =
                try await Self.post(statusOfSlow, to: emulator).flatMap(Self.body)?.errorCondition
                != .inProgress
        }
        let aborted = try await running.value
        Self.expectSame(
            aborted.response.flatMap(Self.body), try Self.expected("abortPayment__abortPaymentResponse"),
            "abort")
        #expect(aborted.status == 3)
        #expect(emulator.stop() == 0)
    }

    @Test func aBadFileIsAUsageErrorAndAKeyedEmulatorRefusesClearMessages() async throws {
        let emulator = try Emulator.start([
            "--key-identifier", "mykey", "--key-passphrase", "mypassphrase", "--key-version", "1",
        ])
        let notJSON = try await Self.send("02893fy0f238hg", to: emulator)
        #expect(notJSON.status == 1)
        #expect(notJSON.err.contains("is not a Terminal API request"))
        let clear = try await Self.send(
            try Self.request("payment__paymentRequest", serviceID: "C1"), to: emulator)
        #expect(clear.response.flatMap(Self.body)?.errorCondition == .notAllowed)
        #expect(clear.status == 2)
        let encrypted = try await Self.send(
            try Self.request("payment__paymentRequest", serviceID: "E1"), to: emulator,
            ["--key-identifier", "mykey", "--key-passphrase", "mypassphrase", "--key-version", "1"])
        #expect(encrypted.response.flatMap(Self.body)?.result == .success, "\(encrypted.err)")
        #expect(encrypted.status == 0)
        let wrongKey = try await Self.send(
            try Self.request("payment__paymentRequest", serviceID: "E2"), to: emulator,
            ["--key-identifier", "mykey", "--key-passphrase", "other", "--key-version", "1"])
        #expect(wrongKey.response.flatMap(Self.body)?.errorCondition == .notAllowed)
        // The answer on the wire is encrypted under the key.
        let crypto = NexoCrypto(
            key: NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "mypassphrase"))
        let clearRequest = try NexoCoder.decodeRequest(
            Data(
                try Self.request(
                    "payment__paymentRequest", serviceID: "E3",
                    // Another amount: the gateway refuses the same card and amount twice in 5 minutes.
                    replacing: [("\"RequestedAmount\": 1.00", "\"RequestedAmount\": 2.00")]
                ).utf8))
        let wire = try #require(
            try await Self.post(
                String(decoding: NexoCoder.encode(crypto.encrypt(clearRequest)), as: UTF8.self), to: emulator)
        )
        #expect(wire.nexoBlob != nil && wire.paymentResponse == nil)
        let opened = try crypto.decrypt(wire)
        #expect(
            opened.paymentResponse?.response.result == .success,
            "\(String(decoding: NexoCoder.encode(opened), as: UTF8.self))")
        #expect(emulator.stop() == 0)
    }

    /// The gateway process runs on the system clock, so its one-second sessions lapse in real
    /// time between the payments; the emulator renews its session and goes on approving.
    @Test func theEmulatorKeepsApprovingAfterItsGatewaySessionLapsed() async throws {
        let gateway = try PaymentCommandTests.ServedGateway(["--session-lifetime", "1"])
        defer { _ = gateway.stop() }
        let emulator = try Emulator.start(gateway.arguments)
        defer { _ = emulator.stop() }
        for (index, amount) in ["1.00", "2.00", "3.00"].enumerated() {
            if index > 0 { try await Task.sleep(for: .milliseconds(1_500)) }
            let sent = try await Self.send(
                try Self.request(
                    "payment__paymentRequest", serviceID: "L\(index)",
                    replacing: [("\"RequestedAmount\": 1.00", "\"RequestedAmount\": \(amount)")]),
                to: emulator)
            let body = sent.response.flatMap(Self.body)
            #expect(
                body?.result == .success,
                "payment \(index): \(String(describing: body?.errorCondition)) \(sent.err)")
            #expect(sent.status == 0)
        }
    }

    /// Posts `text` to the emulator's /nexo (in-process, for the status polls).
    static func post(_ text: String, to emulator: Emulator) async throws -> SaleToPOIResponse? {
        var request = URLRequest(url: URL(string: emulator.url + "/nexo")!)
        request.httpMethod = "POST"
        request.httpBody = Data(text.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try? NexoCoder.decodeResponse(data)
    }
}
