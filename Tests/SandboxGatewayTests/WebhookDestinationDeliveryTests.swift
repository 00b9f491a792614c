import Foundation
import GatewayAPI
import Synchronization
import Testing

@testable import SandboxGateway

/// A resolver whose answers the test changes, as a DNS record changed between a URL's
/// configuration and its delivery (or an attacker's DNS rebinding) would.
final class ChangingResolver: WebhookHostResolver {
    private let answers = Mutex<[String: [WebhookAddress]]>([:])

    func answer(_ host: String, with addresses: [String]) {
        answers.withLock { $0[host] = addresses.map { WebhookAddress($0)! } }
    }

    func addresses(of host: String) async -> [WebhookAddress] { answers.withLock { $0[host] ?? [] } }
}

/// The destination check runs again before each delivery, on the addresses the host resolves
/// to then, and the request goes to the address checked.
@Suite(.timeLimit(.minutes(1))) struct WebhookDestinationDeliveryTests {
    static func delivery(to url: String) -> WebhookDispatcher.Delivery {
        .init(
            eventID: "evt_dns", merchantID: "m1", transactionID: "txn_dns", body: Array("{}".utf8),
            url: URL(string: url)!, secret: "whsec-0123456789abcdef")
    }

    static func dispatch(
        _ delivery: WebhookDispatcher.Delivery, destinations: WebhookDestinations, statuses: [Int] = [200]
    ) async -> (ScriptedTransport, MemoryDeliveryLog) {
        let transport = ScriptedTransport(statuses: statuses)
        let log = MemoryDeliveryLog()
        let dispatcher = WebhookDispatcher(
            transport: transport, log: log, destinations: destinations,
            policy: WebhookRetryPolicy(
                maximumAttempts: 3, initialDelay: .seconds(1), maximumDelay: .seconds(4)),
            clock: RecordingClock(), now: { Date(timeIntervalSince1970: 1_800_000_000) })
        await dispatcher.enqueue(delivery)
        await dispatcher.waitUntilIdle()
        return (transport, log)
    }

    @Test func aHostThatResolvesToAPrivateAddressAtDeliveryIsRefusedWithoutARequest() async throws {
        let resolver = ChangingResolver()
        let destinations = WebhookDestinations(scopes: [], resolver: resolver)
        resolver.answer("hooks.shop.example", with: ["93.184.215.14"])
        try await destinations.check("https://hooks.shop.example/paid", field: "callbackURL")

        resolver.answer("hooks.shop.example", with: ["10.0.0.7"])
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "https://hooks.shop.example/paid"), destinations: destinations)
        #expect(transport.sent.isEmpty)
        #expect(log.all.map(\.failure) == [.destinationRefused])
        #expect(
            log.all.first?.statusCode == nil && log.all.first?.nextAttemptAt == nil,
            "a refusal is not retried")
    }

    /// Rebinding to a metadata address: refused whatever the scopes allow.
    @Test func aHostRebindingToTheMetadataServiceIsRefusedEvenWithEveryScope() async throws {
        let resolver = ChangingResolver()
        let destinations = WebhookDestinations(scopes: [.loopback, .privateNetworks], resolver: resolver)
        resolver.answer("rebind.example", with: ["93.184.215.14", "169.254.169.254"])
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "http://rebind.example/"), destinations: destinations)
        #expect(transport.sent.isEmpty)
        #expect(log.all.map(\.failure) == [.destinationRefused])
    }

    /// `localhost` on a gateway that does not allow loopback, with the system's resolver.
    @Test func localhostIsRefusedAtDeliveryWhenLoopbackIsNotAllowed() async {
        let destinations = WebhookDestinations(policy: .publicOnly, listeningOn: "127.0.0.1")
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "http://localhost:9/hook"), destinations: destinations)
        #expect(transport.sent.isEmpty)
        #expect(log.all.map(\.failure) == [.destinationRefused])
    }

    /// The connection goes to the address checked; the URL, and so `Host` and TLS's server
    /// name, keep the host name.
    @Test func theRequestGoesToTheAddressChecked() async {
        let resolver = ChangingResolver()
        resolver.answer("hooks.shop.example", with: ["93.184.215.14", "2606:4700::1111"])
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "https://hooks.shop.example/paid"),
            destinations: WebhookDestinations(scopes: [], resolver: resolver))
        #expect(log.all.map(\.succeeded) == [true])
        #expect(transport.sent.map(\.address) == [WebhookAddress("93.184.215.14")!])
        #expect(transport.sent.map(\.url.absoluteString) == ["https://hooks.shop.example/paid"])
    }

    /// A host that stops resolving is unreachable (and retried), not a refusal.
    @Test func aHostThatNoLongerResolvesIsUnreachable() async {
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "https://gone.example/"),
            destinations: WebhookDestinations(scopes: [], resolver: ChangingResolver()))
        #expect(transport.sent.isEmpty)
        #expect(log.all.map(\.failure) == [.unreachable, .unreachable, .unreachable])
    }

    /// A 3xx answer is a failure of its own class, with its status; the next attempt goes to
    /// the same URL, never to the `Location`.
    @Test func aRedirectIsAFailureAndNeverFollowed() async {
        let resolver = ChangingResolver()
        resolver.answer("hooks.shop.example", with: ["93.184.215.14"])
        let (transport, log) = await Self.dispatch(
            Self.delivery(to: "https://hooks.shop.example/paid"),
            destinations: WebhookDestinations(scopes: [], resolver: resolver), statuses: [307, 308, 200])
        #expect(log.all.map(\.failure) == [.redirect, .redirect, nil])
        #expect(log.all.map(\.statusCode) == [307, 308, 200])
        #expect(Set(transport.sent.map(\.url.absoluteString)) == ["https://hooks.shop.example/paid"])
    }
}
