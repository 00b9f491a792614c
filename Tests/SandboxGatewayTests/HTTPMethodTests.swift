import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

@Suite(
    "A known path called with another method is 405 with Allow; GET routes answer HEAD",
    .timeLimit(.minutes(2)))
struct HTTPMethodTests {
    /// The methods the route table lists for `template`, with HEAD beside GET.
    func expectedAllow(_ template: String) -> String {
        var methods = Set(GatewayRoutes.all.filter { $0.path == template }.map(\.method.rawValue))
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted().joined(separator: ", ")
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await GatewayHarness.with { harness in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.get, GatewayPaths.authorizeCard, "POST"),
                (.delete, GatewayPaths.merchant, "GET, HEAD"),
                (.delete, GatewayPaths.login, "POST"),
                (.put, GatewayPaths.transaction(id: "tx_1"), "GET, HEAD"),
                (.get, GatewayPaths.searchTransactions, "POST"),
                (.post, GatewayPaths.inventory, "GET, HEAD, PUT"),
                (.patch, GatewayPaths.webhookConfig, "GET, HEAD, PUT"),
                (.head, GatewayPaths.statistics, "POST"),
            ]
            for (method, path, allow) in cases {
                let reply = try await harness.send(method, path)
                #expect(reply.status == 405, "\(method) \(path)")
                #expect(reply.header("Allow") == allow, "\(method) \(path)")
                if method != .head {
                    #expect(reply.error?.code == GatewayErrorCode.methodNotAllowed, "\(method) \(path)")
                    #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
                }
            }
        }
    }

    @Test func everyRouteRefusesAMethodItDoesNotTake() async throws {
        try await GatewayHarness.with { harness in
            for route in GatewayRoutes.all {
                let path = GatewayPaths.filling(route.path, ["id": "tx_unknown", "key": "k1"])
                // PATCH: no route takes it (DELETE revokes a device).
                let reply = try await harness.send(.patch, path)
                #expect(reply.status == 405, "PATCH \(route.path)")
                #expect(reply.header("Allow") == expectedAllow(route.path), "PATCH \(route.path)")
            }
        }
    }

    @Test func unknownPathIsStill404() async throws {
        try await GatewayHarness.with { harness in
            for path in ["/v1/nothing-here", "/v1/transactions/tx_1/unknown", "/v1/auth/login/extra"] {
                let reply = try await harness.send(.delete, path)
                #expect(reply.status == 404, "\(path)")
                #expect(reply.error?.code == GatewayErrorCode.noSuchRoute, "\(path)")
                #expect(reply.header("Allow") == nil, "\(path)")
            }
        }
    }

    @Test func headOnAGetRouteAnswersLikeGetWithoutABody() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for path in [GatewayPaths.health, GatewayPaths.merchant, GatewayPaths.openAPI] {
                let get = try await harness.send(.get, path, token: token)
                let head = try await harness.send(.head, path, token: token)
                #expect(get.status == 200, "GET \(path)")
                #expect(head.status == 200, "HEAD \(path)")
                #expect(head.body.isEmpty, "HEAD \(path)")
                #expect(!get.body.isEmpty, "GET \(path)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "HEAD \(path)")
                #expect(head.header("Content-Length") == String(get.body.count), "HEAD \(path)")
            }
            let unauthenticated = try await harness.send(.head, GatewayPaths.merchant)
            #expect(unauthenticated.status == 401)
            #expect(unauthenticated.body.isEmpty)
        }
    }
}
