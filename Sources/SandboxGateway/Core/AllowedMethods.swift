import GatewayAPI
import Hummingbird

extension GatewayRoutes {
    /// The methods the gateway takes on `path`, as the router resolves it: the routes of the
    /// one template that matches it, a literal segment winning over a `{placeholder}` as in
    /// the router's trie (`/v1/transactions/search` is the search route, not a transaction).
    /// A GET route also takes HEAD.
    ///
    /// - Returns: the methods in alphabetical order; empty when no route has this path.
    static func allowedMethods(forPath path: String, in routes: [GatewayRoute] = all) -> [String] {
        let segments = path.split(separator: "/")
        var best: [Substring]?
        var methods: Set<String> = []
        for route in routes {
            let template = route.path.split(separator: "/")
            guard template.count == segments.count,
                zip(template, segments).allSatisfy({ isPlaceholder($0) || $0 == $1 })
            else { continue }
            if best == template {
                methods.insert(route.method.rawValue)
            } else if best.map({ isMoreLiteral(template, than: $0) }) ?? true {
                best = template
                methods = [route.method.rawValue]
            }
        }
        if methods.contains(GatewayHTTPMethod.get.rawValue) { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func isPlaceholder(_ segment: Substring) -> Bool {
        segment.first == "{" && segment.last == "}"
    }

    /// Whether `template` has a literal segment where `other` first has a placeholder.
    private static func isMoreLiteral(_ template: [Substring], than other: [Substring]) -> Bool {
        for (mine, theirs) in zip(template, other) where isPlaceholder(mine) != isPlaceholder(theirs) {
            return isPlaceholder(theirs)
        }
        return false
    }
}

extension GatewayResponse {
    /// 405 with code 4050 and an `Allow` header listing `allowed`, for a known path called
    /// with another method.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [String]) -> Response {
        let list = allowed.joined(separator: ", ")
        var response = error(
            GatewayError(
                code: GatewayErrorCode.methodNotAllowed,
                "\(method.rawValue.prefix(20)) is not allowed on this path; it takes \(list)."))
        response.headers[.allow] = list
        return response
    }
}
