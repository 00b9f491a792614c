import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import Synchronization
import Testing

@testable import MPOSKit

/// An answer the SDK cannot read is never taken for an answer that says something: a 2xx whose
/// transaction does not decode is no refusal (the gateway did the request), a 404 without the
/// gateway's body is no "never seen", and a merchant that cannot be read fails the login.
@Suite(.timeLimit(.minutes(1))) struct GatewayAnswerReadingTests {
    /// A gateway in a transport whose answer to each path the test sets; anything else is a 404
    /// `noSuchRoute`, as from a gateway without the route.
    final class ScriptedGateway: GatewayTransport {
        let answers: Mutex<[String: GatewayHTTPResponse]>

        init(_ answers: [String: GatewayHTTPResponse]) { self.answers = Mutex(answers) }

        func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
            -> GatewayHTTPResponse
        {
            answers.withLock { $0[request.path] }
                ?? GatewayHTTPResponse(
                    status: 404,
                    body: try! GatewayJSON.encoder.encode(
                        GatewayErrorBody(code: GatewayErrorCode.noSuchRoute, message: "scripted")))
        }
    }

    static let key = IdempotencyKey(rawValue: "unreadable-1")!
    static let merchant = MerchantInfo(
        id: "m_read", name: "Reading Shop", currency: .eur, country: "DE", categoryCode: "5999")
    static let notJSON = Data("<html>502 Bad Gateway</html>".utf8)

    static func client(
        _ gateway: ScriptedGateway, credentials: GatewayCredentials = .clientToken({ "token-1" })
    )
        -> GatewayClient
    {
        GatewayClient(
            baseURL: URL(string: "http://gateway.invalid")!, credentials: credentials, transport: gateway,
            clock: ManualClock())
    }

    @Test func aSuccessWhoseTransactionCannotBeReadLeavesTheOutcomeUnknown() {
        for status in [200, 201] {
            let answer = GatewayClient.answer(GatewayHTTPResponse(status: status, body: Self.notJSON))
            // Not a refusal that charged nothing: the rule looks the request up instead.
            #expect(!GatewayDelivery.isFinal(answer))
            #expect(GatewayDelivery.event(answer: answer) == .unanswered)
        }
        // An error body that cannot be read still refuses, as its status says.
        let refused = GatewayClient.answer(GatewayHTTPResponse(status: 402, body: Self.notJSON))
        #expect(GatewayDelivery.isFinal(refused))
    }

    @Test func aLookupThatFindsAnUnreadableTransactionSaysNothingYet() async {
        let gateway = ScriptedGateway([
            GatewayPaths.attempt(key: Self.key.rawValue): GatewayHTTPResponse(status: 200, body: Self.notJSON)
        ])
        #expect(await Self.client(gateway).lookup(Self.key) == .unreachable)
    }

    @Test func onlyTheGatewaysNotFoundLetsARequestGoAgain() async throws {
        let path = GatewayPaths.attempt(key: Self.key.rawValue)
        let gateway = ScriptedGateway([path: GatewayHTTPResponse(status: 404, body: Self.notJSON)])
        let client = Self.client(gateway)
        // A proxy's page is no word from the gateway.
        #expect(await client.lookup(Self.key) == .unreachable)
        gateway.answers.withLock { $0[path] = GatewayHTTPResponse(status: 404, body: Data()) }
        #expect(await client.lookup(Self.key) == .unreachable)
        let notFound = try GatewayJSON.encoder.encode(
            GatewayErrorBody(
                code: GatewayErrorCode.notFound, message: "No request is known with this idempotency key."))
        gateway.answers.withLock { $0[path] = GatewayHTTPResponse(status: 404, body: notFound) }
        #expect(await client.lookup(Self.key) == .notFound)
    }

    @Test func aClientTokenLoginWhoseMerchantCannotBeReadFails() async throws {
        let gateway = ScriptedGateway([
            GatewayPaths.merchant: GatewayHTTPResponse(status: 200, body: Self.notJSON)
        ])
        let client = Self.client(gateway)
        await #expect(throws: MPOSError.gatewayRefused) { try await client.login() }
        #expect(await !client.isLoggedIn)
        #expect(await client.merchant == nil)

        // A merchant that reads logs in as before.
        let merchant = try GatewayJSON.encoder.encode(Self.merchant)
        gateway.answers.withLock {
            $0[GatewayPaths.merchant] = GatewayHTTPResponse(status: 200, body: merchant)
        }
        try await client.login()
        #expect(await client.merchant == Self.merchant)
    }

    @Test func aQueryWhoseAnswerCannotBeReadSaysSo() async throws {
        let merchant = try GatewayJSON.encoder.encode(Self.merchant)
        let gateway = ScriptedGateway([
            GatewayPaths.merchant: GatewayHTTPResponse(status: 200, body: merchant),
            GatewayRoutes.searchTransactions.path: GatewayHTTPResponse(status: 200, body: Self.notJSON),
        ])
        let client = Self.client(gateway)
        try await client.login()
        do {
            _ = try await client.query(GatewayRoutes.searchTransactions, body: TransactionSearchRequest())
            Issue.record("an unreadable answer was taken")
        } catch {
            #expect(error.code == MPOSError.Code.gatewayRefused)
            #expect(error.message == "The gateway's answer could not be read.")
        }
    }
}

/// A transport to a real gateway that replaces the body of the first answer to `path` with
/// bytes that are no JSON: the gateway did the request, and its answer cannot be read.
final class GarblingTransport: GatewayTransport {
    private let base: any GatewayTransport = NIOGatewayTransport()
    private let path: String
    private let garbled = Mutex(false)

    init(path: String) { self.path = path }

    var didGarble: Bool { garbled.withLock { $0 } }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        var response = try await base.send(request, to: baseURL)
        if request.path == path,
            garbled.withLock({ done in
                defer { done = true }; return !done
            })
        {
            response.body = GatewayAnswerReadingTests.notJSON
        }
        return response
    }
}

/// The card sale through a real sandbox whose approval arrives unreadable.
@Suite(.timeLimit(.minutes(1))) struct UnreadableApprovalEndToEndTests {
    @Test func aSaleWhoseApprovalCannotBeReadIsLookedUpNotDeclined() async throws {
        let sandbox = try await Sandbox()
        let transport = GarblingTransport(path: GatewayPaths.authorizeCard)
        let terminal = try await sandbox.terminal(transport: transport)
        let result = try await terminal.sale(PaymentParameters(amount: 23_00, currency: .eur))
        #expect(transport.didGarble)
        // The approval the gateway holds is the sale's: read by the lookup, not declined over it.
        #expect(result.status == .approved)
        #expect(result.recovered)
        let sales = try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(sales.map(\.status) == [.approved])
        #expect(sales.first?.id == result.transactionID)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        try await sandbox.close(terminal)
    }
}
