import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

@Suite("OpenAPI document, route list and server agree", .timeLimit(.minutes(2)))
struct OpenAPISyncTests {
    /// `METHOD path` for every operation in the YAML, read line by line: a path is a line of
    /// two-space indentation under `paths:` ending in `:`, an operation a four-space line
    /// naming an HTTP method.
    static func operations(inYAML text: String) -> Set<String> {
        var result = Set<String>()
        var inPaths = false
        var currentPath: String?
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line.hasPrefix("paths:")
                currentPath = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast(line.hasSuffix(":") ? 1 : 0))
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path = currentPath {
                let name = line.trimmingCharacters(in: .whitespaces).dropLast()
                if methods.contains(String(name)) { result.insert("\(name.uppercased()) \(path)") }
            }
        }
        return result
    }

    @Test func yamlListsExactlyTheContractsRoutes() throws {
        let text = try String(contentsOfFile: OpenAPIDocument.defaultPath, encoding: .utf8)
        let documented = Self.operations(inYAML: text)
        let declared = Set(GatewayRoutes.all.map(\.description))
        #expect(documented.subtracting(declared).isEmpty, "documented but not in GatewayRoutes.all: \(documented.subtracting(declared).sorted())")
        #expect(declared.subtracting(documented).isEmpty, "in GatewayRoutes.all but not documented: \(declared.subtracting(documented).sorted())")
        #expect(Set(GatewayRoutes.all).count == GatewayRoutes.all.count)
    }

    @Test func everyDeclaredRouteIsServedAndTheDocumentToo() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for route in GatewayRoutes.all {
                let path = GatewayPaths.filling(route.path, ["id": "tx_probe", "key": "probe-key"])
                let reply = try await harness.send(
                    HTTPRequest.Method(rawValue: route.method)!, path, body: route.hasJSONBody ? Data("{".utf8) : nil,
                    token: route.authentication == .apiKey ? nil : token,
                    apiKey: route.authentication == .apiKey ? harness.credentials.apiKey : nil)
                #expect(reply.error?.code != GatewayErrorCode.noSuchRoute, "\(route) is not served")
                #expect(reply.status < 500, "\(route) answered \(reply.status)")
            }
            let document = try await harness.send(.get, GatewayPaths.openAPI)
            #expect(document.status == 200)
            #expect(String(decoding: document.body, as: UTF8.self).hasPrefix("openapi: 3"))
        }
    }

    @Test func pathTemplatesFill() {
        #expect(GatewayPaths.filling(GatewayPaths.capture, ["id": "tx 1/2"]) == "/v1/transactions/tx%201%2F2/capture")
        #expect(GatewayPaths.attempt(key: "abc") == "/v1/attempts/abc")
        #expect(GatewayRoutes.all.allSatisfy { $0.path == GatewayPaths.health || $0.path.hasPrefix(GatewayAPIInfo.pathPrefix + "/") })
    }
}
