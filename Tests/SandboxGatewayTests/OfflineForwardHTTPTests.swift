import EMV
import Foundation
import GatewayAPI
import MPOSCore
import SandboxGateway
import Testing

/// A forwarded offline sale over HTTP: only a chip or contactless completed sale carrying the
/// card's TC is taken, and the same key answers the same transaction.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct OfflineForwardHTTPTests {
    /// An offline-forward request whose EMV data carries an ARQC (as a first GENERATE AC gives).
    static func withARQC(kind: CardPaymentKind = .sale, allowPartial: Bool = false) throws
        -> AuthorizeCardRequest
    {
        var request = try PaymentHTTPTests.authorize(
            SimulatedTerminal.card("visa-credit"), amount: 41_00, kind: kind, duplicateCheck: false,
            allowPartial: allowPartial)
        request.offlineStoredAt = Date(timeIntervalSince1970: 1_795_000_000)
        return request
    }

    @Test(arguments: GatewayTestEngine.allCases) func aForwardWithoutTheCardsTCIsRefused(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.withARQC(), token: token)
            #expect(reply.status == 422 && reply.error?.message.contains("TC") == true)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func onlyACompletedSaleIsForwarded(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            for request in [
                try Self.withARQC(kind: .refundUnreferenced), try Self.withARQC(allowPartial: true),
            ] {
                let reply = try await PaymentHTTPTests.post(
                    harness, GatewayPaths.authorizeCard, request, token: token)
                #expect(reply.status == 400 && reply.error?.code == 4001)
            }
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aSaleWithoutOfflineStoredAtIsUnchanged(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            var request = try Self.withARQC()
            request.offlineStoredAt = nil
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, request, token: token)
            #expect(reply.status == 200)
        }
    }
}
