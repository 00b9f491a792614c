import Foundation
import MPOSCore
import MPOSKit
import MPOSKitNIO

/// Picks a command's journal once the gateway's identity is known (see ``JournalLocation``).
enum JournalChoice {
    /// The journal for a command against `url` with `credentials`, and a note to show first.
    ///
    /// - `--journal PATH`: that file. A command that takes no payment (`paying` false) does
    ///   not refuse because of it: when the file belongs to another gateway or merchant, the
    ///   command runs on a temporary journal and says so.
    /// - otherwise: the per-user journal of the gateway's instance and the merchant, asked of
    ///   the gateway first. When the gateway cannot be reached, the journal last used at this
    ///   URL (an offline sale needs the session kept in it).
    ///
    /// - Returns: nil for the path when the command should run on a temporary journal.
    /// - Throws: `CLIFailure` when the gateway refuses the credentials, or cannot be reached
    ///   and no journal was used at its URL before.
    static func resolve(
        _ options: TerminalOptions, url: URL, credentials: GatewayCredentials, transport: NIOGatewayTransport,
        paying: Bool
    ) async throws -> (path: String?, note: String?) {
        if let given = try JournalLocation.explicit(options) {
            guard !paying, let owner = try? JournalSummary.read(path: given).owner,
                let identity = try? await PaymentTerminal.identify(
                    environment: url, credentials: credentials, transport: transport),
                !owner.admits(identity)
            else { return (given, nil) }
            return (
                nil,
                "note: the journal \(given) belongs to \(owner), not \(identity); this command takes no payment "
                    + "and runs without it"
            )
        }
        do {
            let identity = try await PaymentTerminal.identify(
                environment: url, credentials: credentials, transport: transport)
            return (try JournalLocation.defaultPath(for: identity), nil)
        } catch let error as MPOSError where error.code == MPOSError.Code.gatewayUnreachable {
            guard let used = try lastUsed(at: url.absoluteString) else {
                throw CLIFailure(
                    "login at \(url.absoluteString) failed: \(error.message) No journal has been used with this "
                        + "gateway yet, so there is no offline session either.")
            }
            return (used, nil)
        } catch let error as MPOSError {
            throw CLIFailure("login at \(url.absoluteString) failed: \(error.message)")
        }
    }

    /// The per-user journal last active at the gateway URL `gateway`, if any.
    static func lastUsed(at gateway: String) throws -> String? {
        var address = gateway
        while address.hasSuffix("/") { address.removeLast() }
        return try JournalLocation.known().compactMap { try? JournalSummary.read(path: $0) }
            .filter { $0.owner?.gatewayURL == address }
            .max { ($0.lastActivity ?? .distantPast) < ($1.lastActivity ?? .distantPast) }?.path
    }

    /// One line per other journal in the per-user folder with unfinished work, saying how to
    /// finish it.
    static func othersWithUnfinishedWork(than path: String?) -> [String] {
        guard let known = try? JournalLocation.known() else { return [] }
        return known.filter { $0 != path }.compactMap { other in
            guard let summary = try? JournalSummary.read(path: other), summary.hasUnfinishedWork else { return nil }
            let count = summary.unfinishedAttempts + summary.unfinishedNetworkedAttempts
            let whose = summary.owner.map { " (\($0))" } ?? ""
            return "note: the journal \(other)\(whose) has \(count) unfinished attempt\(count == 1 ? "" : "s"); "
                + "'mpos journal finish --journal \(other)' settles them at its gateway"
        }
    }
}
