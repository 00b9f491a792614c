#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import ArgumentParser
import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit

/// `mpos reader update --reader HOST:PORT --gateway URL
/// (--user [--password-file FILE] | --client-token-file FILE) [--check] [--json]`
struct ReaderUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Check a reader for updates, or download and apply them.",
        discussion: """
            Logs the reader in with the gateway (its terminal management) and lists what is \
            pending and by when (--check), or applies every pending image one at a time: each is \
            downloaded, checked (size, SHA-256, the gateway's signature), written to the reader, \
            which restarts on it and is reached again, until nothing is pending. Without --gateway \
            or --reader an embedded sandbox is used, as for the payment commands.

            Exit codes: 0 updated or up to date (with --check: always, once the check answered), \
            1 any failure. --json prints one object: result, applied (kind and version) and reader \
            (model, serial and versions after).
            """)

    @Flag(help: "Only list what is pending and the deadline.")
    var check = false

    @Flag(help: "Apply configuration images only (firmware waits until asked for).")
    var configurationOnly = false

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        try await TerminalSession.with(options, needsReader: true, showEvents: false, reconnectable: true, paying: false) {
            terminal in
            let status: TerminalUpdateStatus
            do { status = try await terminal.updates.check() } catch {
                throw CLIFailure("the reader could not be initialized with the gateway: \((error as? MPOSError)?.message ?? "\(error)")")
            }
            if check {
                UpdateOutput.check(status, json: options.json)
                return
            }
            let operation = terminal.updates.downloadAndApply(includeFirmware: !configurationOnly)
            var display = UpdateOutput.Progress(live: !options.json && isatty(STDOUT_FILENO) == 1, quiet: options.json)
            for await step in operation.progress { display.show(step) }
            display.finish()
            let result = await operation.result()
            let info = try? await terminal.reader.info()
            if options.json {
                UpdateOutput.json(result, info: info)
            } else if result.isUpToDate {
                CLIOutput.line(
                    result.type == .upToDate
                        ? "up to date: nothing pending"
                        : "updated: " + result.applied.map { "\($0.kind.rawValue) \($0.version)" }.joined(separator: ", "))
            }
            guard result.isUpToDate else {
                throw CLIFailure("update failed (\(result.type.rawValue)): \(result.message ?? "no detail")")
            }
        }
    }
}

/// What `mpos reader update` prints.
enum UpdateOutput {
    static func check(_ status: TerminalUpdateStatus, json: Bool) {
        if json {
            CLIOutput.line(jsonLine(CheckJSON(
                hasUpdates: status.hasUpdates, blocked: status.blocked,
                updateDeadline: status.updateDeadline.map { $0.formatted(.iso8601) },
                pending: status.pending.map(ImageJSON.init))))
            return
        }
        guard status.hasUpdates else {
            CLIOutput.line("up to date: nothing pending")
            return
        }
        for image in status.pending {
            CLIOutput.line("pending: \(image.kind.rawValue) \(image.version) (\(image.size) bytes)")
        }
        if let deadline = status.updateDeadline {
            CLIOutput.line(
                "deadline: \(deadline.formatted(.iso8601))"
                    + (status.blocked ? " (passed: payments are refused until the reader is updated)" : ""))
        }
    }

    static func json(_ result: UpdateResult, info: DeviceInfo?) {
        CLIOutput.line(jsonLine(ResultJSON(
            result: result.type.rawValue,
            applied: result.applied.map { AppliedJSON(kind: $0.kind.rawValue, version: $0.version) },
            reader: info.map {
                ReaderJSON(
                    model: $0.model, serial: $0.serialNumber, firmware: $0.applicationVersion,
                    configuration: $0.emvParameterVersion)
            },
            message: result.message)))
    }

    /// `--check --json`: every key present, `updateDeadline` null when there is none.
    struct CheckJSON: Encodable {
        let hasUpdates: Bool
        let blocked: Bool
        let updateDeadline: String?
        let pending: [ImageJSON]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(hasUpdates, forKey: .hasUpdates)
            try container.encode(blocked, forKey: .blocked)
            try container.encode(updateDeadline, forKey: .updateDeadline)
            try container.encode(pending, forKey: .pending)
        }

        private enum CodingKeys: String, CodingKey { case hasUpdates, blocked, updateDeadline, pending }
    }

    /// One pending image; `deadline` null when it has none.
    struct ImageJSON: Encodable {
        let id: String
        let kind: String
        let version: String
        let size: Int64
        let deadline: String?

        init(_ image: UpdateImage) {
            id = image.id
            kind = image.kind.rawValue
            version = image.version
            size = image.size
            deadline = image.deadline.map { $0.formatted(.iso8601) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(version, forKey: .version)
            try container.encode(size, forKey: .size)
            try container.encode(deadline, forKey: .deadline)
        }

        private enum CodingKeys: String, CodingKey { case id, kind, version, size, deadline }
    }

    /// The outcome of an update run; `reader` and `message` only when known.
    struct ResultJSON: Encodable {
        let result: String
        let applied: [AppliedJSON]
        let reader: ReaderJSON?
        let message: String?
    }

    /// An installed image.
    struct AppliedJSON: Encodable {
        let kind: String
        let version: String
    }

    /// The reader's versions after the run.
    struct ReaderJSON: Encodable {
        let model: String
        let serial: String
        let firmware: String
        let configuration: String
    }

    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Stage lines, or on a terminal one line redrawn with a bar, the rate and the time left.
    struct Progress {
        let live: Bool
        let quiet: Bool
        var lastStage: (UpdateStage, String?)?
        var stageStart = ContinuousClock.now
        /// The bytes the stage started from (a resumed write starts where the reader stood).
        var stageStartBytes: Int64?
        /// The last quarter of the bytes a plain (not live) display reported in this stage.
        var quarterShown = 0
        var drawn = false

        init(live: Bool, quiet: Bool) {
            self.live = live
            self.quiet = quiet
        }

        mutating func show(_ step: UpdateProgress) {
            guard !quiet else { return }
            let name = step.image.map { "\($0.kind.rawValue) \($0.version)" }
            if lastStage?.0 != step.stage || lastStage?.1 != name {
                if drawn { print("") }
                drawn = false
                lastStage = (step.stage, name)
                stageStart = .now
                stageStartBytes = nil
                quarterShown = 0
                if !live || step.bytesTotal == nil {
                    CLIOutput.line("\(Self.label(step.stage))\(name.map { ": \($0)" } ?? "")")
                }
            }
            guard let done = step.bytesDone, let total = step.bytesTotal, total > 0 else { return }
            guard live else {
                // Plain lines for logs: the bytes at each quarter.
                let quarter = Int(done * 4 / total)
                if quarter > quarterShown {
                    quarterShown = quarter
                    CLIOutput.line("\(Self.label(step.stage))\(name.map { ": \($0)" } ?? ""): \(done)/\(total) bytes")
                }
                return
            }
            if stageStartBytes == nil { stageStartBytes = done }
            let since = ContinuousClock.now - stageStart
            let elapsed = Double(since.components.seconds) + Double(since.components.attoseconds) / 1e18
            let rate = elapsed > 0.05 ? Double(done - (stageStartBytes ?? 0)) / elapsed : 0
            let left = rate > 0 ? Double(total - done) / rate : 0
            let filled = Int(Double(done) / Double(total) * 30)
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
            let line = String(
                format: "\r%@ %@ [%@] %lld/%lld bytes, %.0f KiB/s, ETA %.0f s", Self.label(step.stage), name ?? "", bar,
                done, total, rate / 1024, left)
            FileHandle.standardOutput.write(Data(line.utf8))
            drawn = true
        }

        mutating func finish() {
            if drawn { print("") }
        }

        static func label(_ stage: UpdateStage) -> String {
            switch stage {
            case .validation: "validation"
            case .checkForUpdates: "check for updates"
            case .downloadFile: "download"
            case .writeFileToTerminal: "write to reader"
            case .terminalReboot: "reader restart"
            case .confirmUpdate: "confirm update"
            }
        }
    }
}
