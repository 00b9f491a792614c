import Foundation
import GRDB
import GatewayAPI
import Hummingbird

extension Dashboard {
    /// `/dashboard/readers`: the merchant's registered readers and what each has pending.
    func addReaderRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/dashboard/readers") { request, _ in
            await page(request) { session in
                let now = environment.now
                let readers = try await environment.store.database.read { db in
                    try db.fetchAll(sql: "SELECT * FROM update_reader WHERE merchant_id = ? ORDER BY serial_number",
                        arguments: [session.merchantID]
                    ).map { row in
                        ReadersPage.Reader(
                            serial: row["serial_number"], model: row["model"], channel: row["channel"],
                            firmware: row["firmware_version"], configuration: row["configuration_version"],
                            lastSeen: row["last_seen_at"], updates: try TerminalRegistry.pending(for: row, now: now, in: db))
                    }
                }
                let publishes = try await environment.accounts.isFirstMerchant(session.merchantID)
                return DashboardHTTP.page(
                    ReadersPage.render(
                        session: session, readers: readers, publishes: publishes,
                        published: request.uri.queryParameters.get("published").map { String($0) }))
            }
        }
        router.post("/dashboard/readers/publish") { request, _ in
            guard let session = await session(request) else {
                return DashboardHTTP.page(
                    DashboardLayout.message("Forbidden", "Log in again, then send the form.", session: nil),
                    status: .forbidden)
            }
            return await answering(session) { try await publish(request, session) }
        }
    }

    /// Publishes the image of the readers page's form: CSRF first, then the sandbox's first
    /// merchant only (the catalogue is the whole sandbox's, as `POST /v1/updates` says), through
    /// the same catalogue service as the API.
    func publish(_ request: Request, _ session: DashboardSession) async throws -> Response {
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
            throw GatewayError.invalid("The form must be sent as multipart/form-data.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: UpdateCatalogueService.maximumFileSize + 64 * 1024)
        } catch {
            throw GatewayError(
                code: GatewayErrorCode.bodyTooLarge,
                "An image is at most \(UpdateCatalogueService.maximumFileSize / (1024 * 1024)) MiB.")
        }
        let form = try MultipartForm(body: Array(buffer.readableBytesView), boundary: boundary)
        guard Self.same(form["csrf"]?.text, session.csrfToken) else {
            return DashboardHTTP.page(
                DashboardLayout.message(
                    "Forbidden", "The form's security token is missing or stale; reload the page.", session: session),
                status: .forbidden)
        }
        guard try await environment.accounts.isFirstMerchant(session.merchantID) else {
            throw GatewayError.forbidden("Only the sandbox's first merchant publishes updates: the catalogue is the whole sandbox's.")
        }
        let publication = try ReadersPage.publication(form)
        guard let file = form["image"], file.filename != nil, !file.data.isEmpty else {
            throw GatewayError.invalid("Choose the image file to publish.")
        }
        let catalogue = UpdateCatalogueService(database: environment.store.database, now: environment.configuration.now)
        let image = try await catalogue.publish(publication, content: Data(file.data))
        return DashboardHTTP.redirect("/dashboard/readers?published=\(DashboardHTTP.query(image.version))")
    }
}

/// The readers page: each reader's versions, when it was last seen, and its pending updates
/// with the deadline after which it may no longer take payments.
enum ReadersPage {
    struct Reader: Sendable {
        var serial: String
        var model: String
        var channel: String
        var firmware: String
        var configuration: String
        var lastSeen: Date
        var updates: TerminalInitializeResponse
    }

    /// The publication the form describes: model, kind, version, channel and an optional
    /// deadline day (its first instant, UTC).
    /// - Throws: ``GatewayError`` 4001 for a missing or malformed field.
    static func publication(_ form: MultipartForm) throws(GatewayError) -> UpdatePublication {
        func field(_ name: String) -> String { form[name]?.text.trimmingCharacters(in: .whitespaces) ?? "" }
        let model = field("model")
        let version = field("version")
        try UpdateText.require(model, "model")
        try UpdateText.require(version, "version")
        guard let kind = UpdateKind(rawValue: field("kind")) else {
            throw .invalid("'kind' must be firmware or configuration.")
        }
        guard let channel = UpdateChannel(rawValue: field("channel").isEmpty ? "production" : field("channel")) else {
            throw .invalid("'channel' must be test or production.")
        }
        var deadline: Date?
        if !field("deadline").isEmpty {
            guard let day = TransactionSearch.utcDay(field("deadline")) else {
                throw .invalid("'deadline' must be a date written yyyy-MM-dd.")
            }
            deadline = day.start
        }
        return UpdatePublication(model: model, kind: kind, version: version, channel: channel, deadline: deadline)
    }

    /// The form that publishes an image with a deadline (first merchant only).
    static func publishForm(session: DashboardSession) -> HTML {
        """
        <h2>Publish an update</h2>\
        <form method="post" action="/dashboard/readers/publish" enctype="multipart/form-data" class="stack">\
        \(DashboardLayout.csrfField(session))\
        <label>Model <input name="model" required maxlength="64"></label>\
        <label>Kind <select name="kind"><option value="configuration">configuration</option>\
        <option value="firmware">firmware</option></select></label>\
        <label>Version <input name="version" required maxlength="64"></label>\
        <label>Channel <select name="channel"><option value="production">production</option>\
        <option value="test">test</option></select></label>\
        <label>Deadline (UTC day, optional) <input name="deadline" type="date"></label>\
        <label>Image <input name="image" type="file" required></label>\
        <button type="submit">Publish</button></form>
        """
    }

    static func render(
        session: DashboardSession, readers: [Reader], publishes: Bool = false, published: String? = nil
    ) -> HTML {
        let rows = readers.map { reader -> HTML in
            let pending = reader.updates.pending.map { image -> HTML in
                "<li>\(image.kind.rawValue) \(image.version)</li>"
            }
            let deadline = reader.updates.updateDeadline.map { DashboardLayout.time($0) + (reader.updates.blocked ? " (passed)" : "") }
            return """
                <tr><td>\(reader.serial)</td><td>\(reader.model)</td><td>\(reader.channel)</td><td>\(reader.firmware)</td>\
                <td>\(reader.configuration)</td><td>\(DashboardLayout.time(reader.lastSeen))</td>\
                <td><ul>\(pending)</ul></td><td>\(deadline ?? "")</td></tr>
                """
        }
        let content: HTML = """
            <div class="scroll"><table><thead><tr><th scope="col">Serial</th><th scope="col">Model</th>\
            <th scope="col">Channel</th><th scope="col">Firmware</th><th scope="col">Configuration</th>\
            <th scope="col">Last seen (UTC)</th><th scope="col">Pending updates</th><th scope="col">Deadline (UTC)</th>\
            </tr></thead><tbody>\(rows)</tbody></table></div>
            """
        let notice: HTML = published.map { "<p role=\"status\">Published \($0).</p>" } ?? ""
        let form: HTML = publishes ? publishForm(session: session) : ""
        return DashboardLayout.page(title: "Readers", session: session, content: HTML.joined([notice, content, form]))
    }
}
