import Foundation
import GatewayAPI
import Hummingbird
import Testing

@testable import SandboxGateway

/// Every endpoint of the contract, with its route erased so endpoints of different body types
/// sit in one list; a test below checks this list is exactly ``GatewayRoutes/all``.
private let endpoints: [(name: String, route: GatewayRoute)] = [
    ("health", GatewayRoutes.health.route), ("openAPI", GatewayRoutes.openAPI.route),
    ("login", GatewayRoutes.login.route), ("logout", GatewayRoutes.logout.route),
    ("deviceSession", GatewayRoutes.deviceSession.route),
    ("forgotUserID", GatewayRoutes.forgotUserID.route), ("resetPassword", GatewayRoutes.resetPassword.route),
    ("confirmPasswordReset", GatewayRoutes.confirmPasswordReset.route),
    ("changePassword", GatewayRoutes.changePassword.route), ("merchant", GatewayRoutes.merchant.route),
    ("outbox", GatewayRoutes.outbox.route), ("securityEvents", GatewayRoutes.securityEvents.route),
    ("registerDevice", GatewayRoutes.registerDevice.route), ("devices", GatewayRoutes.devices.route), ("revokeDevice", GatewayRoutes.revokeDevice.route),
    ("mintClientToken", GatewayRoutes.mintClientToken.route),
    ("createMerchant", GatewayRoutes.createMerchant.route), ("attempt", GatewayRoutes.attempt.route),
    ("authorizeCard", GatewayRoutes.authorizeCard.route),
    ("cashPayment", GatewayRoutes.cashPayment.route), ("sepaPayment", GatewayRoutes.sepaPayment.route),
    ("transaction", GatewayRoutes.transaction.route),
    ("capture", GatewayRoutes.capture.route), ("tipAdjust", GatewayRoutes.tipAdjust.route),
    ("void", GatewayRoutes.void.route), ("reverse", GatewayRoutes.reverse.route),
    ("refund", GatewayRoutes.refund.route), ("receipt", GatewayRoutes.receipt.route),
    ("sendReceipt", GatewayRoutes.sendReceipt.route),
    ("uploadSignature", GatewayRoutes.uploadSignature.route), ("signature", GatewayRoutes.signature.route),
    ("closeBatch", GatewayRoutes.closeBatch.route),
    ("searchTransactions", GatewayRoutes.searchTransactions.route),
    ("statistics", GatewayRoutes.statistics.route), ("uploadInventory", GatewayRoutes.uploadInventory.route),
    ("downloadInventory", GatewayRoutes.downloadInventory.route),
    ("inventoryVersion", GatewayRoutes.inventoryVersion.route),
    ("getWebhookConfig", GatewayRoutes.getWebhookConfig.route),
    ("putWebhookConfig", GatewayRoutes.putWebhookConfig.route),
    ("webhookDeliveries", GatewayRoutes.webhookDeliveries.route),
    ("terminalInitialize", GatewayRoutes.terminalInitialize.route),
    ("terminalInstalls", GatewayRoutes.terminalInstalls.route),
    ("listUpdates", GatewayRoutes.listUpdates.route),
    ("publishUpdate", GatewayRoutes.publishUpdate.route), ("updateFile", GatewayRoutes.updateFile.route),
]

@Suite("The gateway serves every endpoint of the contract as declared", .timeLimit(.minutes(3)))
struct GatewayContractTests {
    @Test func theRouteListIsEveryDeclaredEndpointOnce() {
        #expect(endpoints.map(\.route) == GatewayRoutes.all)
        #expect(Set(endpoints.map(\.route.description)).count == endpoints.count)
    }

    /// The router built by the server holds one route per endpoint, with the endpoint's
    /// method and path template, and no other (the HEAD beside each GET is generated when the
    /// router is built into a responder, and `HTTPMethodTests` covers it).
    @Test func everyEndpointIsARegisteredRouteWithItsMethodAndPath() async throws {
        try await GatewayHarness.with { harness in
            let router = SandboxGateway.makeRouter(environment: harness.gateway.environment)
            // The back office's pages (and the one-time link `mpos dashboard` asks for) are the
            // browser's, not the API's: DashboardHTTPTests and the browser suite cover them.
            let registered = Set(
                router.routes.filter { !$0.path.description.hasPrefix("/dashboard") }
                    .map { "\($0.method.rawValue) \($0.path.description)" })
            let expected = Set(endpoints.map(\.route.description))
            #expect(
                expected.subtracting(registered).isEmpty,
                "declared, not served: \(expected.subtracting(registered).sorted())")
            #expect(
                registered.subtracting(expected).isEmpty,
                "served, not declared: \(registered.subtracting(expected).sorted())")
        }
    }

    /// Each endpoint refuses a caller without credentials unless it declares none, and
    /// refuses the credentials its declaration leaves out (a client token where a user's
    /// access token is needed, an API key where a token is needed, a token where an API key
    /// is needed); the credentials it declares get past authentication.
    @Test func everyEndpointAuthenticatesAsDeclared() async throws {
        try await GatewayHarness.with { harness in
            let apiKey = harness.credentials.apiKey
            let minted = try await harness.send(
                .post, GatewayPaths.clientTokens, body: Data("{}".utf8), apiKey: apiKey)
            let clientToken = try minted.decode(ClientToken.self).token
            for (name, route) in endpoints {
                let method = try #require(HTTPRequest.Method(rawValue: route.method.rawValue))
                let path = route.path(filling: ["id": "tx_probe", "key": "probe-key"])
                let body = route.hasJSONBody ? Data("{}".utf8) : nil
                func probe(token: String? = nil, key: String? = nil) async throws -> Int {
                    try await harness.send(
                        method, path, body: body, token: token, apiKey: key,
                        idempotencyKey: "probe-\(UUID().uuidString)"
                    ).status
                }
                let anonymous = try await probe()
                let accessToken = try await harness.login()
                let withAccessToken = try await probe(token: accessToken)
                let withClientToken = try await probe(token: clientToken)
                let withAPIKey = try await probe(key: apiKey)
                let refused: Set<Int> = [401, 403]
                switch route.authentication {
                case .none:
                    #expect(!refused.contains(anonymous), "\(name) refused an anonymous caller: \(anonymous)")
                case .accessToken:
                    #expect(anonymous == 401, "\(name) without credentials: \(anonymous)")
                    #expect(
                        !refused.contains(withAccessToken), "\(name) with an access token: \(withAccessToken)"
                    )
                    #expect(
                        refused.contains(withClientToken), "\(name) with a client token: \(withClientToken)")
                    #expect(refused.contains(withAPIKey), "\(name) with an API key: \(withAPIKey)")
                case .bearer:
                    #expect(anonymous == 401, "\(name) without credentials: \(anonymous)")
                    #expect(
                        !refused.contains(withAccessToken), "\(name) with an access token: \(withAccessToken)"
                    )
                    if route.scope == .administration {
                        #expect(withClientToken == 403, "\(name) with a client token: \(withClientToken)")
                    } else {
                        #expect(
                            !refused.contains(withClientToken), "\(name) with a client token: \(withClientToken)")
                    }
                    #expect(refused.contains(withAPIKey), "\(name) with an API key: \(withAPIKey)")
                case .apiKey:
                    #expect(anonymous == 401, "\(name) without credentials: \(anonymous)")
                    #expect(
                        refused.contains(withAccessToken), "\(name) with an access token: \(withAccessToken)")
                    #expect(
                        refused.contains(withClientToken), "\(name) with a client token: \(withClientToken)")
                    #expect(!refused.contains(withAPIKey), "\(name) with an API key: \(withAPIKey)")
                case .bearerOrAPIKey:
                    #expect(anonymous == 401, "\(name) without credentials: \(anonymous)")
                    #expect(
                        !refused.contains(withAccessToken), "\(name) with an access token: \(withAccessToken)"
                    )
                    // Every route that takes either is an administration route.
                    #expect(route.scope == .administration, "\(name)")
                    #expect(withClientToken == 403, "\(name) with a client token: \(withClientToken)")
                    #expect(!refused.contains(withAPIKey), "\(name) with an API key: \(withAPIKey)")
                }
            }
        }
    }
}

@Suite("Endpoint declarations and their path templates")
struct GatewayEndpointTests {
    @Test func idsAreFilledPercentEncodedAsOneSegment() {
        #expect(GatewayRoutes.refund.path(id: "tx_1") == "/v1/transactions/tx_1/refund")
        #expect(GatewayRoutes.capture.path(id: "tx 1/2") == "/v1/transactions/tx%201%2F2/capture")
        #expect(GatewayRoutes.transaction.path(id: "a?b#c%d") == "/v1/transactions/a%3Fb%23c%25d")
        #expect(GatewayRoutes.transaction.path(id: "../merchant") == "/v1/transactions/..%2Fmerchant")
        #expect(GatewayRoutes.receipt.path(id: "é") == "/v1/transactions/%C3%A9/receipt")
        #expect(GatewayRoutes.attempt.path(key: "key-1_A.b~") == "/v1/attempts/key-1_A.b~")
        #expect(GatewayRoutes.updateFile.route.path(filling: ["id": "{key}"]) == "/v1/updates/%7Bkey%7D/file")
    }

    @Test func aRouteWithoutPlaceholdersIsItsTemplate() {
        #expect(GatewayRoutes.login.route.path(filling: [:]) == "/v1/auth/login")
        #expect(GatewayRoutes.login.route.path(filling: ["id": "x"]) == "/v1/auth/login")
    }

    @Test func everyPlaceholderIsAnIdOrAKey() {
        for route in GatewayRoutes.all {
            #expect(route.parameterNames.allSatisfy { ["id", "key"].contains($0) }, "\(route)")
            let filled = route.path(filling: ["id": "x", "key": "y"])
            #expect(!filled.contains("{") && !filled.contains("}"), "\(route) leaves a placeholder")
        }
        #expect(GatewayRoutes.sendReceipt.route.parameterNames == ["id"])
        #expect(GatewayRoutes.attempt.route.parameterNames == ["key"])
        #expect(
            GatewayRoutes.all.allSatisfy {
                $0.path == GatewayPaths.health || $0.path.hasPrefix(GatewayAPIInfo.pathPrefix + "/")
            })
    }

    @Test func aJSONBodyFollowsFromTheRequestType() {
        #expect(GatewayRoutes.login.hasJSONBody)
        #expect(GatewayRoutes.refund.hasJSONBody)
        #expect(!GatewayRoutes.logout.hasJSONBody)
        #expect(!GatewayRoutes.closeBatch.hasJSONBody)
        #expect(!GatewayRoutes.publishUpdate.hasJSONBody)
        #expect(GatewayRoutes.closeBatch.requiresIdempotencyKey)
        #expect(GatewayRoutes.refund.description == "POST /v1/transactions/{id}/refund")
        #expect(GatewayRoutes.uploadInventory.method == .put)
    }

    @Test func methodsAreTheirWireNames() {
        #expect(GatewayHTTPMethod.allCases.map(\.rawValue) == ["GET", "POST", "PUT", "DELETE"])
    }
}
