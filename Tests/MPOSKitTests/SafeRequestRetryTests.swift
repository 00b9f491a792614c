import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import Synchronization
import Testing

@testable import MPOSKit

/// Safe requests (login, the merchant, lookups, reports) are sent again after a lost
/// connection, with a growing pause on the terminal's clock, until a deadline; an answer from
/// the gateway and an untrusted certificate are not. The clock is a manual one that the tests
/// move on as soon as the terminal waits, so the pauses are observed and no time passes.
@Suite(.timeLimit(.minutes(2))) struct SafeRequestRetryTests {
    static let merchant = MerchantInfo(id: "m_retry", name: "Retry Shop", currency: .eur, country: "DE", categoryCode: "5999")

    /// A JSON answer with `value` as its body.
    static func answer(_ value: some Encodable, status: Int = 200) -> String {
        let body = String(decoding: (try? GatewayJSON.encoder.encode(value)) ?? Data(), as: UTF8.self)
        return ScriptedHTTPServer.answer(status, body, headers: "Content-Type: application/json\r\n")
    }

    static let session = answer(
        Session(accessToken: "token-retry", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), merchant: merchant))

    /// A scripted gateway that counts the requests it sees, a manual clock, and terminals on
    /// both over the SwiftNIO transport, each with its own journal.
    final class Scripted: Sendable {
        let server: ScriptedHTTPServer
        let clock = ManualClock()
        private let lines: Lines
        private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mposkit-\(UUID().uuidString)")

        private final class Lines: Sendable {
            let seen = Mutex<[String]>([])
        }

        /// - Parameter script: the reply to a request, given how many requests with the same
        ///   line came before it (0 for the first).
        init(_ script: @escaping @Sendable (ScriptedHTTPServer.Request, Int) -> ScriptedHTTPServer.Reply) async throws {
            let lines = Lines()
            self.lines = lines
            server = try await ScriptedHTTPServer { request in
                let before = lines.seen.withLock { seen in
                    defer { seen.append(request.line) }
                    return seen.filter { $0 == request.line }.count
                }
                return script(request, before)
            }
        }

        /// How many requests had `line` ("METHOD path").
        func count(_ line: String) -> Int { lines.seen.withLock { $0.filter { $0 == line }.count } }

        /// A new terminal that retries safe requests for `deadline`.
        func terminal(deadline: Duration = .seconds(15)) throws -> PaymentTerminal {
            try PaymentTerminal(
                environment: URL(string: "http://127.0.0.1:\(server.port)")!, credentials: .login(user: "u", password: "p"),
                journalPath: directory.appendingPathComponent("journal-\(UUID().uuidString).sqlite").path,
                transport: NIOGatewayTransport(), clock: clock, safeRequestRetryDeadline: deadline)
        }

        /// Stops the server and removes the journals.
        func close() async {
            await server.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // MARK: - Lost answers are retried

    @Test func loginSucceedsWhenItsFirstAnswerIsLost() async throws {
        // The first login's connection closes before any answer; the second is answered.
        let gateway = try await Scripted { _, before in before == 0 ? .sendAndClose("") : .send(Self.session) }
        let terminal = try gateway.terminal()
        let run = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in try await terminal.login() }
        #expect(throws: Never.self) { try run.result.get() }
        #expect(run.pauses == [.milliseconds(250)])
        #expect(gateway.count("POST \(GatewayPaths.login)") == 2)
        #expect(await terminal.status.isLoggedIn)
        await gateway.close()
    }

    @Test func aReportIsSentAgainWhenItsAnswerIsLost() async throws {
        let page = TransactionPage(items: [], page: 1, pageSize: 25, totalCount: 0)
        let search = "POST \(GatewayPaths.searchTransactions)"
        // The first two searches lose their connection; the third is answered.
        let gateway = try await Scripted { request, before in
            guard request.line == search else { return .send(Self.session) }
            return before < 2 ? .sendAndClose("") : .send(Self.answer(page))
        }
        let terminal = try gateway.terminal()
        try await terminal.login()
        let run = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in
            try await terminal.reports.searchTransactions()
        }
        #expect(try run.result.get() == page)
        #expect(run.pauses == [.milliseconds(250), .milliseconds(500)])
        #expect(gateway.count(search) == 3)
        await gateway.close()
    }

    @Test func aTransactionLookupAndTheMerchantAreReadAgainWhenTheirAnswersAreLost() async throws {
        let sandbox = try await Sandbox()
        let transport = DroppingTransport()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(transport: transport, clock: clock, connect: false)
        let cash = try await terminal.recordCash(PaymentParameters(amount: 7_50, currency: .eur))
        let id = try #require(cash.transactionID)
        let path = GatewayPaths.transaction(id: id.rawValue)
        // The gateway answers both times; the answers are lost on the way back.
        transport.dropAnswers(to: path, count: 2)
        let lookup = await ClockDriver.run(on: clock) { () async throws(MPOSError) in
            try await terminal.receipts.receipt(transactionID: id)
        }
        #expect(try lookup.result.get().amount == 7_50)
        #expect(lookup.pauses == [.milliseconds(250), .milliseconds(500)])
        #expect(transport.sent.filter { $0 == "GET \(path)" }.count == 3)

        transport.dropAnswers(to: GatewayPaths.merchant)
        let merchant = await ClockDriver.run(on: clock) { () async throws(MPOSError) in
            try await terminal.accounts.merchantInfo()
        }
        #expect(try merchant.result.get().id.isEmpty == false)
        #expect(merchant.pauses == [.milliseconds(250)])
        try await sandbox.close(terminal)
    }

    // MARK: - What is not retried, or no longer

    @Test func afterTheDeadlineTheCallerGetsTheErrorItGotBefore() async throws {
        let gateway = try await Scripted { _, _ in .sendAndClose("") }
        let login = "POST \(GatewayPaths.login)"
        let terminal = try gateway.terminal()
        let run = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in try await terminal.login() }
        let error = #expect(throws: MPOSError.self) { try run.result.get() }
        #expect(error?.code == MPOSError.Code.gatewayUnreachable)
        #expect(error?.message == "Login got no answer: connection closed before an answer.")
        // 0.25 s doubling, the last pause cut to end at 15 s: seven logins in all.
        #expect(
            run.pauses == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .milliseconds(7_250)])
        #expect(gateway.clock.now.offset == .seconds(15))
        #expect(gateway.count(login) == 7)
        #expect(await !terminal.status.isLoggedIn)

        // A shorter deadline, set where the terminal is made, ends sooner; zero never retries.
        let quick = try gateway.terminal(deadline: .seconds(1))
        let quickRun = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in try await quick.login() }
        #expect(throws: MPOSError.gatewayUnreachable) { try quickRun.result.get() }
        #expect(quickRun.pauses == [.milliseconds(250), .milliseconds(500), .milliseconds(250)])
        let never = try gateway.terminal(deadline: .zero)
        let neverRun = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in try await never.login() }
        #expect(throws: MPOSError.gatewayUnreachable) { try neverRun.result.get() }
        #expect(neverRun.pauses.isEmpty)
        #expect(gateway.count(login) == 7 + 4 + 1)
        await gateway.close()
    }

    @Test func anAnswerFromTheGatewayIsNotRetriedEvenAnError() async throws {
        let refusal = GatewayErrorBody(code: 4010, message: "Wrong user or password.")
        let login = "POST \(GatewayPaths.login)"
        let gateway = try await Scripted { request, before in
            if request.line == login { return .send(before == 0 ? Self.answer(refusal, status: 401) : Self.session) }
            return .send(Self.answer(GatewayErrorBody(code: 4000, message: "Bad filter."), status: 400))
        }
        let terminal = try gateway.terminal()
        let refused = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in try await terminal.login() }
        #expect(throws: MPOSError.gatewayUnauthorized) { try refused.result.get() }
        #expect(refused.pauses.isEmpty)
        #expect(gateway.count(login) == 1)

        try await terminal.login()
        let search = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in
            try await terminal.reports.searchTransactions()
        }
        #expect(throws: MPOSError.gatewayRefused) { try search.result.get() }
        #expect(search.pauses.isEmpty)
        #expect(gateway.count("POST \(GatewayPaths.searchTransactions)") == 1)
        await gateway.close()
    }

    @Test func aRequestThatIsNotSafeToRepeatIsSentOnce() async throws {
        let gateway = try await Scripted { _, _ in .sendAndClose("") }
        let terminal = try gateway.terminal()
        // A password reset mails a new password each time: a lost answer is the caller's to judge.
        let run = await ClockDriver.run(on: gateway.clock) { () async throws(MPOSError) in
            try await terminal.accounts.resetPassword(user: "merchant")
        }
        #expect(throws: MPOSError.gatewayUnreachable) { try run.result.get() }
        #expect(run.pauses.isEmpty)
        #expect(gateway.count("POST \(GatewayPaths.resetPassword)") == 1)
        await gateway.close()
    }

    @Test func anUntrustedCertificateIsNotRetried() async throws {
        let identity = try TestCertificate()
        let sandbox = try await Sandbox(gatewayTLS: identity.gatewayTLS)
        let untrusting = try NIOGatewayTransport(tlsConfiguration: TestCertificate().trustingClient)
        let clock = ManualClock()
        let terminal = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: untrusting, clock: clock)
        let run = await ClockDriver.run(on: clock) { () async throws(MPOSError) in try await terminal.login() }
        let error = #expect(throws: MPOSError.self) { try run.result.get() }
        #expect(error?.code == MPOSError.Code.gatewayUnreachable)
        #expect(error?.message.contains("the gateway's TLS certificate is not trusted") == true)
        #expect(run.pauses.isEmpty)
        await untrusting.shutdown()
        try await sandbox.close()
    }

    @Test func anUntrustedCertificateIsPermanentOverURLSessionToo() async throws {
        let sandbox = try await Sandbox(gatewayTLS: TestCertificate().gatewayTLS)
        do {
            let response = try await URLSessionGatewayTransport(timeout: 20).send(
                GatewayHTTPRequest(method: "GET", path: GatewayPaths.health), to: sandbox.gateway.baseURL)
            Issue.record("the untrusted gateway answered \(response.status)")
        } catch {
            #expect(error.isPermanent, "\(error.reason)")
        }
        try await sandbox.close()
    }
}

/// Runs an operation on a manual clock, moving the clock to a sleeper's deadline as soon as
/// one waits, so that the operation's pauses take no time and can be read afterwards.
enum ClockDriver {
    private enum Outcome<Value: Sendable>: Sendable {
        case finished(Result<Value, MPOSError>)
        case drove([Duration])
    }

    /// The operation's result and the pauses the clock was moved by, in order.
    static func run<Value: Sendable>(
        on clock: ManualClock, _ operation: @escaping @Sendable () async throws(MPOSError) -> Value
    ) async -> (result: Result<Value, MPOSError>, pauses: [Duration]) {
        await withTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask {
                do throws(MPOSError) { return .finished(.success(try await operation())) } catch {
                    return .finished(.failure(error))
                }
            }
            group.addTask {
                var pauses: [Duration] = []
                while !Task.isCancelled {
                    if let next = clock.nextDeadline {
                        let pause = clock.now.duration(to: next)
                        pauses.append(pause)
                        clock.advance(by: pause)
                    }
                    await Task.yield()
                }
                return .drove(pauses)
            }
            var result: Result<Value, MPOSError> = .failure(MPOSError.gatewayUnreachable)
            var pauses: [Duration] = []
            for await outcome in group {
                switch outcome {
                case .finished(let finished):
                    result = finished
                    group.cancelAll()
                case .drove(let moved): pauses = moved
                }
            }
            return (result, pauses)
        }
    }
}
