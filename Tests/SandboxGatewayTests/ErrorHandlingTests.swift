import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

@Suite("Client mistakes get 4xx JSON, never 5xx", .timeLimit(.minutes(2)), .postgresServer)
struct ErrorHandlingTests {
    /// Sends `body` to every route that reads JSON and checks the answer is a 4xx
    /// GatewayErrorBody (or 501 for a route the build does not implement yet).
    func expectEveryBodyRoute(
        _ harness: GatewayHarness, body: Data, token: String, expecting codes: Set<Int>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for route in GatewayRoutes.all where route.hasJSONBody {
            let path = GatewayPaths.filling(route.path, ["id": "tx_unknown", "key": "k1"])
            let reply = try await harness.send(
                HTTPRequest.Method(rawValue: route.method.rawValue)!, path, body: body,
                token: route.authentication == .apiKey ? nil : token,
                apiKey: route.authentication == .apiKey ? harness.credentials.apiKey : nil,
                idempotencyKey: "key-\(UUID().uuidString)")
            let error = try #require(reply.error, "\(route) answered \(reply.status) without an error body", sourceLocation: sourceLocation)
            #expect((400..<500).contains(reply.status), "\(route) answered \(reply.status)", sourceLocation: sourceLocation)
            #expect(codes.contains(error.code), "\(route) answered code \(error.code)", sourceLocation: sourceLocation)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func malformedJSONIs4000OnEveryBodyRoute(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            try await expectEveryBodyRoute(
                harness, body: Data("{\"user\": ".utf8), token: token, expecting: [GatewayErrorCode.malformedJSON])
            try await expectEveryBodyRoute(
                harness, body: Data("not json at all".utf8), token: token, expecting: [GatewayErrorCode.malformedJSON])
            try await expectEveryBodyRoute(
                harness, body: Data("[1,2,3]".utf8), token: token, expecting: [GatewayErrorCode.malformedJSON])
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func wrongTypesAndMissingFieldsAre4000OnEveryBodyRoute(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let wrongTypes = Data(
                #"{"user": 12, "password": true, "email": [], "oldPassword": 1, "newPassword": 2, "confirmation": 3, "lifetimeSeconds": "x", "kind": 5, "amount": "ten", "currency": 9, "tipAmount": "x", "reason": 4, "channel": 1, "address": 2, "page": "one", "from": 5, "to": 6, "grouping": 7, "version": "v", "csv": 8, "callbackURL": 9, "secret": 10, "name": 11}"#
                    .utf8)
            try await expectEveryBodyRoute(
                harness, body: wrongTypes, token: token,
                expecting: [GatewayErrorCode.malformedJSON, GatewayErrorCode.invalidValue])
            // An empty object lacks the required fields of every body that has any; routes
            // whose fields are all optional may accept it or answer 404 for the unknown id.
            for route in [
                GatewayRoutes.login.route, GatewayRoutes.forgotUserID.route,
                GatewayRoutes.resetPassword.route, GatewayRoutes.changePassword.route,
            ] {
                let reply = try await harness.send(
                    HTTPRequest.Method(rawValue: route.method.rawValue)!, route.path, body: Data("{}".utf8),
                    token: token)
                #expect(reply.status == 400)
                #expect(reply.error?.code == GatewayErrorCode.malformedJSON)
            }
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func emptyBodyIs4000(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let reply = try await harness.send(.post, GatewayPaths.login, body: Data())
            #expect(reply.status == 400)
            #expect(reply.error?.code == GatewayErrorCode.malformedJSON)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func oversizedBodyIs4130OnEveryBodyRoute(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(bodyLimit: 4 * 1024, engine: engine) { harness in
            let token = try await harness.login()
            var big = Data(#"{"user":""#.utf8)
            big.append(Data(repeating: UInt8(ascii: "a"), count: 8 * 1024))
            big.append(Data(#"","password":"x"}"#.utf8))
            try await expectEveryBodyRoute(harness, body: big, token: token, expecting: [GatewayErrorCode.bodyTooLarge])
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func defaultBodyLimitIs64KiB(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            var big = Data(#"{"user":""#.utf8)
            big.append(Data(repeating: UInt8(ascii: "a"), count: 65 * 1024))
            big.append(Data(#"","password":"x"}"#.utf8))
            let reply = try await harness.send(.post, GatewayPaths.login, body: big)
            #expect(reply.status == 413)
            #expect(reply.error?.code == GatewayErrorCode.bodyTooLarge)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func invalidValuesAre4001(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let forgot = try await harness.send(
                .post, GatewayPaths.forgotUserID, json: ForgotUserIDRequest(email: "no-at-sign"))
            #expect(forgot.status == 400)
            #expect(forgot.error?.code == GatewayErrorCode.invalidValue)
            let minted = try await harness.send(
                .post, GatewayPaths.clientTokens, json: ClientTokenRequest(lifetimeSeconds: -5),
                apiKey: harness.credentials.apiKey)
            #expect(minted.error?.code == GatewayErrorCode.invalidValue)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func unknownRouteIs4041JSON(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let reply = try await harness.send(.get, "/v1/nothing-here")
            #expect(reply.status == 404)
            #expect(reply.error?.code == GatewayErrorCode.noSuchRoute)
            let wrongMethod = try await harness.send(.delete, GatewayPaths.login)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.error?.code == GatewayErrorCode.methodNotAllowed)
        }
    }

    @Test func errorCodesMapToTheirStatus() {
        #expect(GatewayErrorCode.httpStatus(for: GatewayErrorCode.locked) == 401)
        #expect(GatewayErrorCode.httpStatus(for: GatewayErrorCode.idempotencyConflict) == 409)
        #expect(GatewayErrorCode.httpStatus(for: GatewayErrorCode.bodyTooLarge) == 413)
        #expect(GatewayErrorCode.httpStatus(for: GatewayErrorCode.declinedValidation) == 422)
        #expect(GatewayErrorCode.httpStatus(for: GatewayErrorCode.internalError) == 500)
        #expect(GatewayErrorCode.httpStatus(for: 7) == 500)
    }
}
