import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit
import Synchronization
import TerminalAPI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `PaymentTerminal` in this process driving a real `mpos terminal emulate` as a networked
/// terminal: sale, refund, void, cancel and refusals over the LAN, encrypted or not, and a
/// sale whose answer is lost with the terminal killed, settled by TransactionStatus once.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct NetworkedTerminalEndToEndTests {
    typealias Emulator = TerminalEmulateCommandTests.Emulator
    static let poiID = TerminalEmulateCommandTests.poiID
    static let key = NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "mypassphrase")
    static let keyArguments = [
        "--key-identifier", "mykey", "--key-passphrase", "mypassphrase", "--key-version", "1",
    ]

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lan-e2e-\(UUID().uuidString)")

    /// A terminal with a journal of its own (never logged in to a gateway) connected to `url`.
    func connected(
        to url: String, key: NexoSecurityKey? = nil,
        transport: any GatewayTransport = URLSessionGatewayTransport(),
        deadline: Duration = .seconds(30)
    ) async throws -> (PaymentTerminal, [RecoveredAttempt]) {
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "-", password: "-"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path)
        let recovered = try await terminal.connect(
            NetworkedTerminal(
                url: try #require(URL(string: url)), poiID: Self.poiID, saleID: "till-e2e", key: key,
                transport: transport,
                settlementDeadline: deadline))
        return (terminal, recovered)
    }

    @Test func saleRefundVoidRefusalAndCancelRunOnTheEmulatedTerminal() async throws {
        let emulator = try Emulator.start()
        defer { _ = emulator.stop() }
        let (terminal, recovered) = try await connected(to: emulator.url)
        #expect(recovered.isEmpty)
        let sale = try await terminal.sale(PaymentParameters(amount: 1234, currency: .eur))
        #expect(sale.status == .approved, "\(String(describing: sale.error))")
        #expect(sale.approvedAmount == 1234 && sale.maskedPAN == "411111******1111" && sale.entryMode != nil)
        let id = try #require(sale.transactionID)
        #expect(id.rawValue.hasPrefix("txn_"))
        let refund = try await terminal.refund(transactionID: id, amount: 234)
        #expect(
            refund.status == .approved && refund.approvedAmount == 234, "\(String(describing: refund.error))")
        let second = try await terminal.sale(PaymentParameters(amount: 1345, currency: .eur))
        let void = try await terminal.void(transactionID: try #require(second.transactionID))
        #expect(void.status == .approved, "\(String(describing: void.error))")
        let refused = try await terminal.sale(PaymentParameters(amount: 124, currency: .eur))
        #expect(refused.status == .declined)
        #expect(refused.responseCode == "51" && refused.refusalReason == "210 Not enough balance")
        // 80.59: the reader waits for a card; the sale system aborts it.
        let done = Mutex(false)
        var events = terminal.events.subscribe([.transaction]).makeAsyncIterator()
        // Unstructured: the sale waits at the terminal while the test aborts it.
        let waiting = Task {
            defer { done.withLock { $0 = true } }
            return try await terminal.sale(PaymentParameters(amount: 8059, currency: .eur))
        }
        while let event = await events.next(), event != .authorizing {}
        // The emulator's reader takes a cancel once it waits for the card: abort until the sale ends.
        for _ in 0..<5_000 where !done.withLock({ $0 }) { _ = try? await terminal.cancel() }
        let cancelled = try await waiting.value
        #expect(cancelled.status == .cancelled)
    }

    @Test func anEncryptedTerminalAnswersOnlyUnderItsKey() async throws {
        let emulator = try Emulator.start(Self.keyArguments)
        defer { _ = emulator.stop() }
        let (terminal, _) = try await connected(to: emulator.url, key: Self.key)
        let sale = try await terminal.sale(PaymentParameters(amount: 2345, currency: .eur))
        #expect(sale.status == .approved, "\(String(describing: sale.error))")
        let wrong = NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "another")
        let (other, _) = try await connected(to: emulator.url, key: wrong)
        let refused = try await other.sale(PaymentParameters(amount: 2456, currency: .eur))
        #expect(refused.status == .failed)
        #expect(refused.error?.code == MPOSError.Code.networkedTerminalOutcomeUnknown)
    }

    @Test func aSaleWhoseAnswerIsLostWithTheTerminalKilledIsChargedOnce() async throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let first = try Emulator.start(gateway.arguments)
        // The terminal takes the payment, performs it, and is killed before its answer arrives.
        let killing = AnswerLosingTransport {
            kill(first.process.processIdentifier, SIGKILL)
            first.process.waitUntilExit()
        }
        do {
            let (terminal, _) = try await connected(to: first.url, transport: killing, deadline: .zero)
            let lost = try await terminal.sale(PaymentParameters(amount: 4321, currency: .eur))
            #expect(lost.status == .failed)
            #expect(lost.error?.code == MPOSError.Code.networkedTerminalOutcomeUnknown)
        }
        #expect(killing.payments == 1)
        // Restarted on the same journal and gateway, the terminal repeats the answer; the SDK,
        // started afresh on its journal, settles the sale when it connects.
        let second = try Emulator.start(gateway.arguments)
        defer { _ = second.stop() }
        let counting = AnswerLosingTransport(losing: false) {}
        let (_, recovered) = try await connected(to: second.url, transport: counting)
        #expect(counting.payments == 0)
        let settled = try #require(recovered.first)
        #expect(recovered.count == 1)
        #expect(settled.finding == .outcome(.approved) && settled.resolution == .recorded)
        let id = try #require(settled.attempt.transactionID)
        // The gateway's ledger holds the sale once.
        let merchant = try PaymentTerminal(
            environment: try #require(URL(string: gateway.url)),
            credentials: .login(user: gateway.user, password: gateway.password),
            journalPath: directory.appendingPathComponent("merchant.sqlite").path)
        try await merchant.login()
        let page = try await merchant.reports.searchTransactions(TransactionSearchRequest(pageSize: 100))
        let sales = page.items.filter { $0.requestedAmount == 4321 && $0.kind == .sale }
        #expect(sales.map(\.id) == [id])
    }

    @Test func theCommandLineSellsAndVoidsOnANetworkedTerminal() async throws {
        let emulator = try Emulator.start(Self.keyArguments)
        defer { _ = emulator.stop() }
        let lan =
            [
                "--terminal", emulator.url, "--poi-id", Self.poiID, "--journal",
                directory.appendingPathComponent("cli.sqlite").path,
            ]
            + Self.keyArguments
        let sale = try await Self.mpos(["sale", "--amount", "34.56", "--json"] + lan)
        #expect(sale.status == 0, "\(sale.err)")
        let json = try PaymentCommandTests.object(sale.out)
        #expect(json["status"] as? String == "approved" && json["approvedAmount"] as? Int == 3456)
        let id = try #require(json["transactionID"] as? String)
        let void = try await Self.mpos(["void", "--transaction", id] + lan)
        #expect(void.status == 0, "\(void.err)")
        #expect(void.out.contains("· sent to the terminal"), "\(void.out)")
        let refused = try await Self.mpos(["sale", "--amount", "1.25", "--json"] + lan)
        #expect(refused.status == 2)
        let missing = try await Self.mpos(["sale", "--amount", "1.00", "--terminal", emulator.url])
        #expect(missing.status != 0 && missing.err.contains("--poi-id"))
    }

    /// Runs `mpos` on a thread of its own, so that waiting for it holds no shared thread.
    static func mpos(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try EMVDecodeBinaryTests.run(arguments) }) }.start()
        }
    }
}

/// Forwards to the terminal over URLSession; counts payment requests and, when `losing`, runs
/// `afterPayment` once a payment is answered and drops that answer.
final class AnswerLosingTransport: GatewayTransport, Sendable {
    private let inner = URLSessionGatewayTransport()
    private let losing: Bool
    private let afterPayment: @Sendable () -> Void
    private let count = Mutex(0)

    init(losing: Bool = true, afterPayment: @escaping @Sendable () -> Void) {
        self.losing = losing
        self.afterPayment = afterPayment
    }

    /// The payment requests posted.
    var payments: Int { count.withLock { $0 } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        let isPayment = request.body.flatMap { try? NexoCoder.decodeRequest($0) }?.paymentRequest != nil
        if isPayment { count.withLock { $0 += 1 } }
        let answer = try await inner.send(request, to: baseURL)
        guard isPayment, losing else { return answer }
        afterPayment()
        throw GatewayTransportError(reason: "connection reset before the answer")
    }
}
