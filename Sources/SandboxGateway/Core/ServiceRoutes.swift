import Foundation
import GatewayAPI
import Hummingbird

/// Registers `GET /health` (the database's reachability) and `GET /v1/openapi.yaml`.
public func addServiceRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    // Answers whether this instance can serve: 200 while its database answers a query, 503
    // when it does not (a load balancer then sends requests to the other instances).
    router.on(GatewayRoutes.health) { _, _ in
        if await environment.store.database.isReachable() {
            return GatewayResponse.json(Data(#"{"status":"ok","database":"reachable"}"#.utf8))
        }
        return GatewayResponse.json(
            Data(#"{"status":"unavailable","database":"unreachable"}"#.utf8), status: .serviceUnavailable)
    }
    let path = environment.configuration.openAPIDocumentPath ?? OpenAPIDocument.defaultPath
    router.on(GatewayRoutes.openAPI) { _, _ in
        guard let document = FileManager.default.contents(atPath: path) else {
            throw GatewayError.notFound("The OpenAPI document is not available in this installation.")
        }
        let data = OpenAPIDocument.stamped(document, instanceID: environment.store.instanceID)
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        headers[.contentLength] = String(data.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Where the gateway's OpenAPI document lives in the package.
public enum OpenAPIDocument {
    /// `docs/gateway-openapi.yaml` in the package this file was compiled from.
    public static var defaultPath: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Core
            .deletingLastPathComponent()  // SandboxGateway
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("docs/gateway-openapi.yaml").path
    }

    /// The document with this gateway's instance id added to its `info` object as
    /// `x-gateway-instance-id` (right after the top-level `info:` line); a document without
    /// one is returned as it is.
    static func stamped(_ document: Data, instanceID: String) -> Data {
        guard let text = String(data: document, encoding: .utf8) else { return document }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let info = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "info:" && !$0.hasPrefix(" ") })
        else { return document }
        lines.insert("  x-gateway-instance-id: \(instanceID)", at: info + 1)
        return Data(lines.joined(separator: "\n").utf8)
    }
}
