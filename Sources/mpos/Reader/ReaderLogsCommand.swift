import ArgumentParser
import ReaderLink

/// `mpos reader logs --reader HOST:PORT [--secret HEX] [--level L] [--reset] [--json]`
struct ReaderLogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Print the reader's log, after setting its level if asked; clear it with --reset.",
        discussion: """
            Prints one log line per line, oldest first. An empty log is a status, not an error: \
            the command prints '\(noData)' and exits 0.
            """
    )

    /// What an empty log prints: the Handpoint seed's `EFT_NO_DATA_AVAILABLE` and its remedy.
    static let noData = "no data available (EFT_NO_DATA_AVAILABLE): set a log level and try again"

    @OptionGroup var link: ReaderLinkOptions

    @Option(help: "Set the reader's log level first: none, info, full or debug.")
    var level: String?

    @Flag(help: "Clear the log after printing it.")
    var reset = false

    @Flag(help: #"Print {"status": "success" or "noDataAvailable", "lines": [...]} instead of text."#)
    var json = false

    func run() async throws {
        let newLevel = try level.map(Self.parseLevel)
        let lines = try await link.withConnection(timeout: .seconds(15)) { connection in
            if let newLevel {
                try await link.askForAck(connection, .setLogLevel(newLevel), "the log level request")
            }
            let lines = try await fetch(connection)
            if reset { try await link.askForAck(connection, .resetLogs, "the log reset") }
            return lines
        }
        if json {
            CLIOutput.line(
                try ReportOutput.json(
                    Output(status: lines.isEmpty ? "noDataAvailable" : "success", lines: lines)))
        } else {
            CLIOutput.line(lines.isEmpty ? Self.noData : lines.joined(separator: "\n"))
        }
    }

    static func parseLevel(_ text: String) throws -> ReaderLogLevel {
        guard let level = ReaderLogLevel.allCases.first(where: { "\($0)" == text }) else {
            throw CLIFailure("--level must be none, info, full or debug, not '\(text)'")
        }
        return level
    }

    /// The log's lines; a reader that answers an empty log with `noDataAvailable` gives none.
    private func fetch(_ connection: ReaderConnection) async throws -> [String] {
        let answer: ReaderMessage
        do { answer = try await connection.request(.fetchLogs) } catch .rejected(.noDataAvailable, _) {
            return []
        } catch {
            throw CLIFailure("the log request to the reader at \(link.reader) failed: \(error)")
        }
        guard case .logs(let lines) = answer else {
            throw CLIFailure("the reader answered \(answer) instead of its log")
        }
        return lines
    }

    private struct Output: Encodable {
        let status: String
        let lines: [String]
    }
}
