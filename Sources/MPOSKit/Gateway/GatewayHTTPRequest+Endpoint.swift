import Foundation
import GatewayAPI

extension GatewayHTTPRequest {
    /// A request to `endpoint`: its method, and its path with the template's placeholders
    /// filled from `parameters` (percent-encoded), so no method or path is spelled out at a
    /// call site.
    init<Input, Output>(
        _ endpoint: GatewayEndpoint<Input, Output>, parameters: [String: String] = [:],
        headers: [String: String] = [:], body: Data? = nil
    ) {
        self.init(
            method: endpoint.method.rawValue, path: endpoint.route.path(filling: parameters),
            headers: headers,
            body: body)
    }

    /// The path parameters of a route whose template has `{id}`, or none.
    static func parameters(id: String?) -> [String: String] {
        id.map { ["id": $0] } ?? [:]
    }
}
