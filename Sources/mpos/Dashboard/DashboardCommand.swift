import ArgumentParser
import Foundation
import GatewayAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mpos dashboard --gateway URL --user U --password-file FILE`: prints the URL of a running
/// sandbox's dashboard with a one-time login link; opens nothing by itself.
struct DashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Print a one-time login link to a running sandbox's dashboard.",
        discussion: """
            Logs in to the sandbox at --gateway with the merchant user's credentials (the ones \
            'mpos gateway serve' printed on its first start), asks it for a single-use login \
            link that expires in 5 minutes, and prints the link. Open it in a browser; a second \
            use is refused. The password comes from --password-file, MPOS_PASSWORD, or a prompt \
            on a terminal (--password works too, but other users of this machine can read it in ps).

            Examples:
              mpos dashboard --gateway http://127.0.0.1:8080 --user sandbox --password-file ~/.mpos-password
              MPOS_PASSWORD='…' mpos dashboard --gateway http://127.0.0.1:8080
            """
    )

    @Option(help: "The running sandbox gateway's URL, such as http://127.0.0.1:8080.")
    var gateway: String

    @Option(help: "The merchant user id.")
    var user = "sandbox"

    @OptionGroup var password: PasswordOptions

    func validate() throws {
        guard let url = URL(string: gateway), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--gateway must be an http(s) URL, e.g. http://127.0.0.1:8080")
        }
    }

    mutating func run() async throws {
        let base = URL(string: gateway.hasSuffix("/") ? String(gateway.dropLast()) : gateway)!
        guard let password = try self.password.resolve(user: user) else {
            throw CLIFailure("mpos dashboard needs the password of --user: " + PasswordOptions.missing)
        }
        CLIOutput.line(try await Self.loginLink(base: base, user: user, password: password))
    }

    /// Logs in at `base`, asks for a one-time link and returns it as a full URL.
    static func loginLink(base: URL, user: String, password: String) async throws -> String {
        let session: Session = try await send(
            base, GatewayPaths.login, body: try GatewayJSON.makeEncoder().encode(LoginRequest(user: user, password: password)),
            token: nil)
        let link: DashboardLink = try await send(base, "/dashboard/login-links", body: nil, token: session.accessToken)
        return base.absoluteString + link.path
    }

    /// What the gateway answers to `POST /dashboard/login-links`.
    struct DashboardLink: Decodable {
        var path: String
    }

    static func send<T: Decodable>(_ base: URL, _ path: String, body: Data?, token: String?) async throws -> T {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body ?? Data()
        let data: Data
        let status: Int
        do {
            let (answer, response) = try await URLSession.shared.data(for: request)
            data = answer
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw CLIFailure("the gateway at \(base.absoluteString) could not be reached: \(error.localizedDescription)")
        }
        guard (200..<300).contains(status) else {
            let message = (try? GatewayJSON.makeDecoder().decode(GatewayErrorBody.self, from: data))?.message
            throw CLIFailure("the gateway refused \(path) (HTTP \(status)): \(message ?? "no error body")")
        }
        do {
            return try GatewayJSON.makeDecoder().decode(T.self, from: data)
        } catch {
            throw CLIFailure("the gateway's answer to \(path) could not be read")
        }
    }
}
