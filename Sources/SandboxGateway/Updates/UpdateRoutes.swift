import Foundation
import GatewayAPI
import Hummingbird
import NIOCore

/// Registers the terminal-management routes: reader initialization, install confirmations,
/// and the update catalogue (list, download, publish).
func addUpdateRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    let catalogue = UpdateCatalogueService(database: environment.store.database, now: environment.configuration.now)
    let registry = TerminalRegistry(database: environment.store.database, now: environment.configuration.now)

    router.on(GatewayRoutes.terminalInitialize) { request, context in
        let merchantID = try context.requireMerchant()
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.terminalInitialize)
        return try context.respond(
            to: request, with: try await registry.initialize(merchant: merchantID, body))
    }

    router.on(GatewayRoutes.terminalInstalls) { request, context in
        let merchantID = try context.requireMerchant()
        let body = try await decodeBody(request, context: context, for: GatewayRoutes.terminalInstalls)
        return try context.respond(
            to: request, with: try await registry.confirmInstall(merchant: merchantID, body))
    }

    router.on(GatewayRoutes.listUpdates) { request, context in
        _ = try context.requireMerchant()
        return try context.respond(to: request, with: UpdateCatalogue(images: try await catalogue.images()))
    }

    router.on(GatewayRoutes.updateFile) { request, context in
        _ = try context.requireMerchant()
        guard let id = context.parameters.get("id"), let image = try await catalogue.image(id: id) else {
            throw GatewayError.notFound("No update image with this id.")
        }
        return try await UpdateDownload.response(
            for: image, range: request.headers[.range], catalogue: catalogue)
    }

    router.on(GatewayRoutes.publishUpdate) { request, context in
        // The catalogue is the sandbox's, so its owner publishes.
        _ = try await context.requireFirstMerchantAPIKey(
            environment.accounts, passive: "Updates are published", active: "publishes updates")
        let publication = try UpdateQuery.publication(request.uri.query)
        // This route alone takes a whole image as its body; every other keeps the gateway's limit.
        var context = context
        context.bodyLimit = UpdateCatalogueService.maximumFileSize
        var request = request
        let content = try await readBody(&request, context: context)
        return try context.respond(
            to: request, with: try await catalogue.publish(publication, content: content), status: .created)
    }
}

/// The answers of `GET /v1/updates/{id}/file`: the whole file, one range of it, or 416.
enum UpdateDownload {
    static func response(for image: UpdateImage, range: String?, catalogue: UpdateCatalogueService)
        async throws -> Response
    {
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = "\"\(image.sha256)\""
        switch ByteRange.resolve(range, size: image.size) {
        case .unsatisfiable:
            var response = GatewayResponse.error(
                GatewayError(
                    code: GatewayErrorCode.rangeNotSatisfiable,
                    "The range starts past the end of the \(image.size)-byte file."))
            response.headers[.contentRange] = "bytes */\(image.size)"
            response.headers[.acceptRanges] = "bytes"
            return response
        case .whole:
            return file(try await catalogue.bytes(of: image.id, offset: 0, length: image.size), .ok, headers)
        case .part(let offset, let length):
            headers[.contentRange] = "bytes \(offset)-\(offset + length - 1)/\(image.size)"
            let bytes = try await catalogue.bytes(of: image.id, offset: offset, length: length)
            return file(bytes, .partialContent, headers)
        }
    }

    private static func file(_ bytes: Data, _ status: HTTPResponse.Status, _ headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "application/octet-stream"
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The query parameters of `POST /v1/updates`, read as a form (`+` is a space).
enum UpdateQuery {
    /// The publication the query describes.
    ///
    /// - Throws: 4001 for a missing or unknown kind, a bad channel or deadline, or a missing
    ///   model or version.
    static func publication(_ query: String?) throws(GatewayError) -> UpdatePublication {
        let fields = parse(query ?? "")
        guard let model = fields["model"] else { throw .invalid("The 'model' query parameter is required.") }
        guard let version = fields["version"] else { throw .invalid("The 'version' query parameter is required.") }
        guard let kindText = fields["kind"] else { throw .invalid("The 'kind' query parameter is required.") }
        guard let kind = UpdateKind(rawValue: kindText) else {
            throw .invalid("'kind' must be firmware or configuration.")
        }
        var channel = UpdateChannel.production
        if let text = fields["channel"] {
            guard let value = UpdateChannel(rawValue: text) else { throw .invalid("'channel' must be test or production.") }
            channel = value
        }
        var deadline: Date?
        if let text = fields["deadline"] {
            guard let date = GatewayTimestamp.parse(text) else {
                throw .invalid("'deadline' must be an RFC 3339 date-time.")
            }
            deadline = date
        }
        try UpdateText.require(model, "model")
        try UpdateText.require(version, "version")
        return UpdatePublication(model: model, kind: kind, version: version, channel: channel, deadline: deadline)
    }

    /// Name to value, the first of repeated names; a value that does not percent-decode is
    /// kept as an invalid marker so that the rules refuse it.
    static func parse(_ query: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "\u{0}"
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }
}
