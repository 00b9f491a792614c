import ArgumentParser
import Foundation
import GatewayAPI
import SandboxGateway

/// `mpos gateway publish-update --db PATH --model M --kind K --version V --file PATH
/// [--deadline ISO8601] [--channel test|production] [--json]`: signs an image with the sandbox
/// update key and adds it to the catalogue.
struct GatewayPublishUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish-update",
        abstract: "Sign a firmware or configuration image and add it to a sandbox's update catalogue.",
        discussion: """
            Creates the database if it is missing. The image is signed with the sandbox update key \
            (docs/update-signing.md) and stored in the database; a gateway already serving the \
            database offers it at once. Readers of the model on the channel see it as pending \
            when its version is newer than theirs; past --deadline (after a new reader's three \
            days of grace) they may not take payments until they install it.

            Examples:
              mpos gateway publish-update --db /tmp/sandbox.sqlite --model MPOS-1 --kind firmware \\
                --version 2.1.0 --file firmware.bin --deadline 2026-12-31T00:00:00Z
              mpos gateway publish-update --db /tmp/sandbox.sqlite --model MPOS-1 --kind configuration \\
                --version 7 --file config.bin --channel test --json
            """
    )

    @OptionGroup var storage: GatewayDatabaseOptions

    @Option(name: .long, help: "The reader model the image is for.")
    var model: String

    @Option(name: .long, help: "firmware or configuration.")
    var kind: String

    @Option(name: .long, help: "The version the image installs (compared dot by dot, numerically where both are digits).")
    var version: String

    @Option(name: .long, help: "The image file.")
    var file: String

    @Option(name: .long, help: "When readers must have installed it (RFC 3339, such as 2026-12-31T00:00:00Z).")
    var deadline: String?

    @Option(name: .long, help: "test or production.")
    var channel = "production"

    @Flag(name: .long, help: "Print the catalogue entry as one JSON object.")
    var json = false

    func validate() throws {
        try storage.requireNamed()
        guard UpdateKind(rawValue: kind) != nil else {
            throw ValidationError("--kind must be firmware or configuration, not '\(kind)'.")
        }
        guard UpdateChannel(rawValue: channel) != nil else {
            throw ValidationError("--channel must be test or production, not '\(channel)'.")
        }
        if let deadline, GatewayTimestamp.parse(deadline) == nil {
            throw ValidationError("--deadline must be an ISO 8601 date-time such as 2026-12-31T00:00:00Z.")
        }
    }

    mutating func run() async throws {
        let content: Data
        do {
            content = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CLIFailure("--file \(file): cannot read the image file.")
        }
        guard !content.isEmpty else { throw CLIFailure("--file \(file): the image file is empty.") }
        guard content.count <= UpdateCatalogueService.maximumFileSize else {
            throw CLIFailure("--file \(file): the image exceeds \(UpdateCatalogueService.maximumFileSize) bytes.")
        }
        let publication = UpdatePublication(
            model: model, kind: UpdateKind(rawValue: kind)!, version: version,
            channel: UpdateChannel(rawValue: channel)!, deadline: deadline.flatMap(GatewayTimestamp.parse))
        let image: UpdateImage
        do {
            image = try await SandboxGateway.publishUpdate(
                try storage.configuration(), publication, content: content)
        } catch let error as GatewayError {
            throw CLIFailure(error.body.message)
        } catch let error as GatewayStartupError {
            // Already one line naming the key or the database.
            throw error
        } catch let error as CocoaError {
            // Foundation's own description of a file error is a dump of its user info.
            throw CLIFailure("\(storage.flag) \(storage.shown): cannot open the sandbox database: \(error.localizedDescription)")
        } catch {
            throw CLIFailure("\(storage.flag) \(storage.shown): cannot open the sandbox database: \(error)")
        }
        if json {
            CLIOutput.line(String(decoding: try GatewayJSON.encoder.encode(image), as: UTF8.self))
        } else {
            CLIOutput.line(Self.describe(image))
        }
    }

    /// The image as `label value` lines.
    static func describe(_ image: UpdateImage) -> String {
        [
            ("id", image.id), ("model", image.model), ("kind", image.kind.rawValue), ("version", image.version),
            ("size", String(image.size)), ("sha256", image.sha256), ("md5", image.md5),
            ("channel", image.channel.rawValue),
            ("deadline", image.deadline.map { ISO8601DateFormatter().string(from: $0) } ?? "none"),
        ].map { label, value in label.padding(toLength: 9, withPad: " ", startingAt: 0) + value }
        .joined(separator: "\n")
    }
}
