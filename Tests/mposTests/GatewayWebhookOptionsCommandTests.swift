import Foundation
import SandboxGateway
import Testing

@testable import mpos

/// `mpos gateway serve --allow-webhooks-to loopback|private`: repeatable or a comma list; a
/// value it does not know is one line on standard error and exit 1, before anything opens.
@Suite(.timeLimit(.minutes(2))) struct GatewayWebhookOptionsCommandTests {
    @Test(arguments: [
        (["--allow-webhooks-to", "loopback"], ["loopback"]),
        (["--allow-webhooks-to", "private", "--allow-webhooks-to", "loopback"], ["loopback", "private"]),
        (["--allow-webhooks-to", "private, LOOPBACK"], ["loopback", "private"]),
        ([], []),
    ])
    func theScopesNamedAreAllowed(arguments: [String], scopes: [String]) throws {
        let command = try GatewayServeCommand.parse(arguments)
        let policy = try command.webhooks.policy()
        #expect(policy.allowed.map(\.rawValue).sorted() == scopes)
        #expect(policy.allowsLoopbackWhileListeningOnLoopback)
    }

    @Test(arguments: ["link-local", "metadata", "everything", "loopback,", "public", ""])
    func anUnknownValueIsRefusedBeforeAnythingStarts(value: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mpos-webhooks-\(UUID()).sqlite"
        ).path
        let run = try EMVDecodeBinaryTests.run(
            ["gateway", "serve", "--port", "0", "--db", file, "--allow-webhooks-to", value])
        #expect(run.status == 1, "\(value): \(run.err)")
        #expect(run.err.contains("--allow-webhooks-to takes loopback or private"), "\(value): \(run.err)")
        #expect(run.err.split(separator: "\n").count == 1, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: file), "nothing is created for a refused command line")
    }
}
