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
                let readers = try await environment.store.writer.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM update_reader WHERE merchant_id = ? ORDER BY serial_number",
                        arguments: [session.merchantID]
                    ).map { row in
                        ReadersPage.Reader(
                            serial: row["serial_number"], model: row["model"], channel: row["channel"],
                            firmware: row["firmware_version"], configuration: row["configuration_version"],
                            lastSeen: row["last_seen_at"], updates: try TerminalRegistry.pending(for: row, now: now, in: db))
                    }
                }
                return DashboardHTTP.page(ReadersPage.render(session: session, readers: readers))
            }
        }
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

    static func render(session: DashboardSession, readers: [Reader]) -> HTML {
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
        return DashboardLayout.page(title: "Readers", session: session, content: content)
    }
}
