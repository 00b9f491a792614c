import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore
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
        #expect(
            documented.subtracting(declared).isEmpty,
            "documented but not in GatewayRoutes.all: \(documented.subtracting(declared).sorted())")
        #expect(
            declared.subtracting(documented).isEmpty,
            "in GatewayRoutes.all but not documented: \(declared.subtracting(documented).sorted())")
        #expect(Set(GatewayRoutes.all).count == GatewayRoutes.all.count)
    }

    /// `METHOD path` → the `x-mpos-scope` of its operation in the YAML.
    static func scopes(inYAML text: String) -> [String: String] {
        var result: [String: String] = [:]
        var path: String?
        var operation: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                // A top-level key: `paths:` begins the operations, anything else ends them.
                path = nil
                operation = nil
            } else if line.hasPrefix("  /") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast(line.hasSuffix(":") ? 1 : 0))
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path {
                operation = "\(line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()) \(path)"
            } else if line.hasPrefix("      x-mpos-scope: "), let operation {
                result[operation] = String(line.dropFirst("      x-mpos-scope: ".count))
            }
        }
        return result
    }

    /// Each operation of the document states the scope the contract declares beside its path,
    /// and exactly the routes without authentication are public.
    @Test func everyOperationStatesTheContractsScope() throws {
        let text = try String(contentsOfFile: OpenAPIDocument.defaultPath, encoding: .utf8)
        let documented = Self.scopes(inYAML: text)
        for route in GatewayRoutes.all {
            #expect(documented[route.description] == route.scope.rawValue, "\(route)")
            #expect((route.authentication == .none) == (route.scope == .public), "\(route)")
        }
        #expect(documented.count == GatewayRoutes.all.count)
        #expect(!GatewayScope.granted(to: .clientToken).contains(.administration))
        #expect(!GatewayScope.granted(to: .apiKey).contains(.payments))
    }

    @Test func everyDeclaredRouteIsServedAndTheDocumentToo() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for route in GatewayRoutes.all {
                let path = GatewayPaths.filling(route.path, ["id": "tx_probe", "key": "probe-key"])
                let reply = try await harness.send(
                    HTTPRequest.Method(rawValue: route.method.rawValue)!, path,
                    body: route.hasJSONBody ? Data("{".utf8) : nil,
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
        #expect(
            GatewayPaths.filling(GatewayPaths.capture, ["id": "tx 1/2"])
                == "/v1/transactions/tx%201%2F2/capture")
        #expect(GatewayPaths.attempt(key: "abc") == "/v1/attempts/abc")
        #expect(
            GatewayRoutes.all.allSatisfy {
                $0.path == GatewayPaths.health || $0.path.hasPrefix(GatewayAPIInfo.pathPrefix + "/")
            })
    }
}

@Suite("OpenAPI document states the rules the gateway applies", .timeLimit(.minutes(2)))
struct OpenAPIRulesTests {
    static let text = (try? String(contentsOfFile: OpenAPIDocument.defaultPath, encoding: .utf8)) ?? ""

    /// The items of the `enum:` list under `name:` in `components/schemas`.
    static func enumItems(ofSchema name: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "    \(name):") else { return [] }
        var items: [String] = []
        var inEnum = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("    ") && !line.hasPrefix("     ") { break }
            if line == "      enum:" { inEnum = true; continue }
            if inEnum {
                guard line.hasPrefix("        - ") else { break }
                items.append(String(line.dropFirst("        - ".count)))
            }
        }
        return items
    }

    @Test func currencyEnumIsWhatTheGatewayTakesMoneyIn() throws {
        let documented = Self.enumItems(ofSchema: "CurrencyCode")
        let payable = Currency.all.filter { (try? PaymentRules.currency(code: $0.code)) != nil }.map(\.code)
        #expect(documented.count > 100)
        #expect(documented == payable.sorted())
        #expect(throws: PaymentRuleViolation.self) { try PaymentRules.currency(code: "XAU") }
    }

    @Test func contactPatternsAreTheGatewaysOwn() {
        #expect(Self.text.contains("pattern: '\(GatewayValidation.emailPattern)'"))
        #expect(Self.text.contains("pattern: '\(GatewayValidation.phonePattern)'"))
        #expect(Self.text.contains("maxLength: \(GatewayValidation.emailMaximumLength)"))
    }

    /// The Swift rules agree with the documented regular expressions on hand-picked edges.
    @Test(arguments: [
        ("a@b.co", true), ("first.last+tag@mail.example.org", true), ("jürgen@bücher.de", true),
        ("", false), ("@b.co", false), ("a@", false), ("a@b", false), ("a@.b", false), ("a@b.", false),
        ("a@b..c", false), ("a@@b.c", false), ("a b@c.d", false), (" a@b.co", false), ("a@b.co ", false),
        ("a\u{7F}@b.co", false), ("a\t@b.co", false), (String(repeating: "a", count: 250) + "@b.co", false),
        (String(repeating: "a", count: 249) + "@b.co", true),
    ])
    func emailRule(address: String, valid: Bool) throws {
        #expect(GatewayValidation.isEmailAddress(address) == valid)
        let regex = try Regex(GatewayValidation.emailPattern)
        let matches = (try? regex.wholeMatch(in: address)) != nil && address.unicodeScalars.count <= 254
        #expect(matches == valid, "the documented pattern disagrees on \(address.debugDescription)")
    }

    @Test(arguments: [
        ("+49 30 1234567", true), ("(030) 123-456", true), ("123456", true), ("12345", false),
        ("1234567890123456", false), ("+49 30 12345a", false), ("١٢٣٤٥٦٧", false), ("", false), ("+++", false),
    ])
    func phoneRule(number: String, valid: Bool) throws {
        #expect(GatewayValidation.isPhoneNumber(number) == valid)
        let matches = (try? Regex(GatewayValidation.phonePattern).wholeMatch(in: number)) != nil
        #expect(matches == valid, "the documented pattern disagrees on \(number.debugDescription)")
    }
}
