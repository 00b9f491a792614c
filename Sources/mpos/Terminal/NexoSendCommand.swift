import ArgumentParser
import Foundation
import TerminalAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mpos nexo …`
struct NexoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nexo",
        abstract: "Talk to a Terminal API (nexo) terminal.",
        subcommands: [NexoSendCommand.self]
    )
}

/// `mpos nexo send --terminal URL [--key-…] FILE|-`: posts one Terminal API request and prints
/// the response.
struct NexoSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Post one Terminal API request to a terminal and print its response.",
        discussion: """
            Reads the request (a {"SaleToPOIRequest": …} JSON object) from FILE, or from standard \
            input for '-', posts it to the terminal's /nexo (encrypted when a key is given) and \
            prints the response JSON (decrypted). Exit codes: 0 Success or Partial (and an Abort, \
            which has no response), 2 Failure, 3 Failure with ErrorCondition Cancel or Aborted, \
            1 error (unreadable file or JSON, terminal unreachable, a Reject notification).

            Example:
              mpos nexo send --terminal http://127.0.0.1:8443 payment.json
            """
    )

    @Option(help: "The terminal's base URL, e.g. http://127.0.0.1:8443 (the request goes to /nexo).")
    var terminal: String

    @OptionGroup var key: NexoKeyOptions

    @Argument(help: "The request file, or '-' for standard input.")
    var file: String

    func run() async throws {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw CLIFailure("cannot read \(file): \(error.localizedDescription)")
            }
        }
        let request: SaleToPOIRequest
        do { request = try NexoCoder.decodeRequest(data) } catch {
            throw CLIFailure(
                "\(file == "-" ? "standard input" : file) is not a Terminal API request: \(error.description)"
            )
        }
        guard let base = URL(string: terminal), let scheme = base.scheme, ["http", "https"].contains(scheme),
            base.host != nil
        else { throw CLIFailure("--terminal must be an http(s) URL, e.g. http://127.0.0.1:8443") }
        let crypto = key.crypto
        var post = URLRequest(url: base.appendingPathComponent("nexo"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = crypto.map { NexoCoder.encode($0.encrypt(request)) } ?? data
        let answer: Data
        do {
            let (body, response) = try await URLSession.shared.data(for: post)
            if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                throw CLIFailure("the terminal answered HTTP \(http.statusCode)")
            }
            answer = body
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure(
                "the terminal at \(terminal) could not be reached: \(error.localizedDescription)")
        }
        if answer.isEmpty { return }
        try throwExitCode(for: Self.printable(answer, crypto: crypto))
    }

    /// Prints the response (decrypted) and returns it; a `Reject` is printed and fails.
    static func printable(_ answer: Data, crypto: NexoCrypto?) throws -> SaleToPOIResponse {
        var response: SaleToPOIResponse
        do {
            response = try NexoCoder.decodeResponse(answer)
        } catch {
            CLIOutput.line(String(decoding: answer, as: UTF8.self))
            throw CLIFailure("the terminal did not answer with a response: \(error.description)")
        }
        if let crypto, response.nexoBlob != nil {
            do { response = try crypto.decrypt(response) } catch {
                throw CLIFailure("the terminal's response could not be decrypted: \(error.description)")
            }
        }
        CLIOutput.line(String(decoding: NexoCoder.encode(response), as: UTF8.self))
        return response
    }

    /// 0 for Success or Partial, 3 for Cancel or Aborted, 2 for another Failure.
    private func throwExitCode(for response: SaleToPOIResponse) throws {
        let result = [
            response.paymentResponse?.response, response.reversalResponse?.response,
            response.transactionStatusResponse?.response, response.diagnosisResponse?.response,
            response.loginResponse?.response, response.logoutResponse?.response,
            response.cardAcquisitionResponse?.response, response.enableServiceResponse?.response,
        ].compactMap { $0 }.first
        guard let result, result.result == .failure else { return }
        throw ExitCode(result.errorCondition == .cancel || result.errorCondition == .aborted ? 3 : 2)
    }
}
