import ArgumentParser
import Foundation
import SandboxGateway

/// `--allow-webhooks-to loopback|private`: the address ranges, otherwise refused, that
/// webhooks and payment callbacks may reach.
struct GatewayWebhookOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Let webhooks and payment callbacks reach loopback or private addresses (repeat it, or "
                + "separate with commas). Loopback is allowed anyway while --host is a loopback address; "
                + "link-local and cloud metadata addresses never are.",
            valueName: "loopback|private"))
    var allowWebhooksTo: [String] = []

    /// The scopes named, each once.
    func scopes() throws -> Set<WebhookDestinationPolicy.Scope> {
        var scopes = Set<WebhookDestinationPolicy.Scope>()
        for value in allowWebhooksTo.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let name = value.trimmingCharacters(in: .whitespaces).lowercased()
            guard let scope = WebhookDestinationPolicy.Scope(rawValue: name) else {
                throw ValidationError(
                    "--allow-webhooks-to takes loopback or private, not '\(value.prefix(40))'.")
            }
            scopes.insert(scope)
        }
        return scopes
    }

    /// Checks every value.
    func validate() throws { _ = try scopes() }

    /// The policy for the gateway: the scopes named, and loopback while it listens on loopback.
    func policy() throws -> WebhookDestinationPolicy { WebhookDestinationPolicy(allowing: try scopes()) }
}
