import Foundation
import Testing

@testable import SandboxGateway

/// The destination rules on the bytes of a resolved address: every spelling of an address
/// gets its address's kind, and the kind decides with the scopes allowed.
@Suite(.timeLimit(.minutes(1))) struct WebhookDestinationPolicyTests {
    @Test(arguments: [
        // Cloud metadata, whatever range it sits in.
        ("169.254.169.254", WebhookAddressKind.cloudMetadata), ("169.254.170.2", .cloudMetadata),
        ("100.100.100.200", .cloudMetadata), ("192.0.0.192", .cloudMetadata),
        ("168.63.129.16", .cloudMetadata),
        ("fd00:ec2::254", .cloudMetadata), ("fd20:ce::254", .cloudMetadata),
        ("::ffff:169.254.169.254", .cloudMetadata), ("::ffff:a9fe:a9fe", .cloudMetadata),
        ("64:ff9b::169.254.169.254", .cloudMetadata), ("2002:a9fe:a9fe::1", .cloudMetadata),
        // Link-local.
        ("169.254.0.1", .linkLocal), ("169.254.255.255", .linkLocal), ("fe80::1", .linkLocal),
        ("febf::1", .linkLocal), ("::ffff:169.254.1.1", .linkLocal),
        // Loopback and "this host".
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback), ("0.0.0.0", .loopback),
        ("0.1.2.3", .loopback), ("::", .loopback), ("::ffff:127.0.0.1", .loopback),
        ("::127.0.0.1", .loopback),
        ("::ffff:0:127.0.0.1", .loopback),
        // Private ranges.
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork), ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork),
        ("100.64.0.1", .privateNetwork),
        ("100.127.255.255", .privateNetwork), ("198.18.0.1", .privateNetwork), ("fc00::1", .privateNetwork),
        ("fd12:3456::1", .privateNetwork), ("fec0::1", .privateNetwork), ("::ffff:10.0.0.1", .privateNetwork),
        ("64:ff9b::10.1.2.3", .privateNetwork),
        // Neither side of each private range's edge.
        ("172.15.255.255", .public), ("172.32.0.0", .public), ("100.63.255.255", .public),
        ("100.128.0.0", .public),
        ("11.0.0.1", .public), ("169.253.255.255", .public), ("192.169.0.1", .public),
        // Public.
        ("93.184.215.14", .public), ("8.8.8.8", .public), ("2606:4700::1111", .public),
        ("::ffff:8.8.8.8", .public), ("2002:0808:0808::1", .public),
        // Never unicast, or never routed.
        ("224.0.0.1", .reserved), ("239.255.255.250", .reserved), ("255.255.255.255", .reserved),
        ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("198.51.100.7", .reserved),
        ("203.0.113.9", .reserved),
        ("ff02::1", .reserved), ("2001:db8::1", .reserved), ("2001::1", .reserved), ("4000::1", .reserved),
    ])
    func everyAddressHasItsKind(text: String, kind: WebhookAddressKind) throws {
        let address = try #require(WebhookAddress(text), "\(text)")
        #expect(address.kind == kind, "\(text)")
    }

    /// Only the standard numeric forms parse here; shorthand spellings are the resolver's to read.
    @Test func addressesParseOnlyInTheirStandardForm() {
        #expect(WebhookAddress("[::1]")?.bytes == Array(repeating: 0, count: 15) + [1])
        #expect(WebhookAddress("10.0.0.1")?.bytes == [10, 0, 0, 1])
        #expect(WebhookAddress("fd00:ec2::254")?.description == "fd00:ec2::254")
        for text in ["2852039166", "0x7f.1", "0177.0.0.1", "127.1", "localhost", "", "1.2.3.4.5"] {
            #expect(WebhookAddress(text) == nil, "\(text)")
        }
    }

    /// The system resolver reads the C library's shorthand spellings, so the rules see the
    /// address they reach (decimal, hex, octal, shortened, IPv4-mapped).
    @Test(arguments: [
        ("2852039166", "169.254.169.254"), ("0xa9fea9fe", "169.254.169.254"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("0251.0376.0251.0376", "169.254.169.254"), ("0x7f.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
        ("[::ffff:169.254.169.254]", "::ffff:169.254.169.254"), ("10.0.0.1", "10.0.0.1"),
    ])
    func theSystemResolverReadsShorthandSpellings(host: String, address: String) async {
        let resolved = await SystemWebhookHostResolver().addresses(of: host)
        #expect(resolved == [WebhookAddress(address)!], "\(host)")
    }

    @Test func localhostResolvesToLoopbackOnly() async {
        let resolved = await SystemWebhookHostResolver().addresses(of: "localhost")
        #expect(!resolved.isEmpty)
        #expect(resolved.allSatisfy { $0.kind == .loopback })
    }

    @Test func eachKindIsDecidedByTheScopes() {
        typealias Policy = WebhookDestinationPolicy
        let address = { (text: String) in WebhookAddress(text)! }
        let none: Set<Policy.Scope> = []
        let all = Set(Policy.Scope.allCases)
        #expect(Policy.refusal(for: address("93.184.215.14"), scopes: none) == nil)
        #expect(Policy.refusal(for: address("127.0.0.1"), scopes: none) == .loopback)
        #expect(Policy.refusal(for: address("127.0.0.1"), scopes: [.loopback]) == nil)
        #expect(Policy.refusal(for: address("0.0.0.0"), scopes: [.privateNetworks]) == .loopback)
        #expect(Policy.refusal(for: address("10.0.0.1"), scopes: none) == .privateNetwork)
        #expect(Policy.refusal(for: address("10.0.0.1"), scopes: [.loopback]) == .privateNetwork)
        #expect(Policy.refusal(for: address("10.0.0.1"), scopes: [.privateNetworks]) == nil)
        // `private` does not reach link-local or metadata addresses; nothing does.
        #expect(Policy.refusal(for: address("169.254.1.1"), scopes: all) == .linkLocal)
        #expect(Policy.refusal(for: address("fe80::1"), scopes: all) == .linkLocal)
        #expect(Policy.refusal(for: address("169.254.169.254"), scopes: all) == .cloudMetadata)
        #expect(Policy.refusal(for: address("100.100.100.200"), scopes: all) == .cloudMetadata)
        #expect(Policy.refusal(for: address("fd00:ec2::254"), scopes: all) == .cloudMetadata)
        #expect(Policy.refusal(for: address("224.0.0.1"), scopes: all) == .reserved)
        // Every address a host resolves to must pass, and a host with none does not resolve.
        #expect(
            Policy.refusal(for: [address("93.184.215.14"), address("10.0.0.1")], scopes: none)
                == .privateNetwork)
        #expect(Policy.refusal(for: [], scopes: all) == .unresolvable)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.0.0.2", true), ("::1", true), ("[::1]", true), ("localhost", true),
        ("LOCALHOST", true), ("0.0.0.0", false), ("::", false), ("10.0.0.5", false),
        ("gateway.example", false),
    ])
    func loopbackIsAllowedByDefaultOnlyWhileListeningOnLoopback(host: String, isLoopback: Bool) {
        let defaults = WebhookDestinationPolicy()
        #expect(defaults.scopes(listeningOn: host) == (isLoopback ? [.loopback] : []), "\(host)")
        #expect(WebhookDestinationPolicy.publicOnly.scopes(listeningOn: host).isEmpty)
        #expect(
            WebhookDestinationPolicy(allowing: [.privateNetworks]).scopes(listeningOn: host)
                == (isLoopback ? [.loopback, .privateNetworks] : [.privateNetworks]))
    }

    /// The refusal's message names the rule and the option, never the URL or the address.
    @Test func refusalMessagesNameNeitherTheURLNorTheAddress() {
        let refusals: [WebhookDestinationRefusal] = [
            .malformedURL, .unresolvable, .loopback, .privateNetwork, .linkLocal, .cloudMetadata, .reserved,
        ]
        for refusal in refusals {
            let message = refusal.message(field: "callbackURL")
            #expect(message.hasPrefix("callbackURL"))
            #expect(
                !message.contains("169.254") && !message.contains("127.0") && !message.contains("http://"))
        }
        #expect(
            WebhookDestinationRefusal.privateNetwork.message(field: "callbackURL").contains(
                "--allow-webhooks-to private"))
        #expect(WebhookDestinationRefusal.cloudMetadata.gatewayError(field: "callbackURL").body.code == 4006)
        #expect(WebhookDestinationRefusal.malformedURL.gatewayError(field: "callbackURL").body.code == 4001)
    }
}
