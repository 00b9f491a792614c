import Foundation
import MPOSKit

/// Where a payment command keeps its journal: `--journal PATH`, else with `--gateway` a
/// persistent per-user file for that gateway and merchant (so that the next run finishes what
/// a killed one left open, and another gateway gets a journal of its own), else (the embedded
/// sandbox, whose gateway does not outlive the command) nowhere lasting.
///
/// The per-user files live under `$XDG_DATA_HOME/mpos` (else `~/.local/share/mpos`) on Linux
/// and Application Support on Apple platforms: `journals/GATEWAY/MERCHANT.sqlite`, GATEWAY
/// being the gateway's instance id (kept across its restarts and ports). `journal.sqlite`
/// beside them is the one default journal of earlier versions, and the networked terminals'.
enum JournalLocation {
    /// `--journal`, checked; nil when it is not given.
    ///
    /// - Throws: `CLIFailure` when the path is empty or a directory, cannot be written, or is
    ///   a file that is not a journal.
    static func explicit(_ options: TerminalOptions) throws -> String? {
        guard let given = options.journal else { return nil }
        guard !given.isEmpty else { throw CLIFailure("--journal needs a file path, e.g. ./journal.sqlite") }
        try check(given, option: "--journal \(given)")
        return given
    }

    /// The journal of a networked terminal's payments: `--journal`, else the shared per-user
    /// file (no gateway login binds it).
    static func networked(_ options: TerminalOptions) throws -> String {
        if let given = try explicit(options) { return given }
        let path = try sharedPath()
        try check(path, option: "the default journal \(path)")
        return path
    }

    /// The per-user journal of `identity`'s gateway and merchant, checked.
    static func defaultPath(for identity: GatewayIdentity) throws -> String {
        let gateway = identity.gatewayInstanceID.map(component) ?? "url-" + component(identity.gatewayURL)
        let path = try dataFolder().appendingPathComponent("journals").appendingPathComponent(gateway)
            .appendingPathComponent(component(identity.merchantID) + ".sqlite").path
        try check(path, option: "the default journal \(path)")
        return path
    }

    /// The one default journal of earlier versions (and the networked terminals' default).
    static func sharedPath() throws -> String { try dataFolder().appendingPathComponent("journal.sqlite").path }

    /// Every journal in the per-user folder: the shared file if it exists, then each
    /// gateway's and merchant's, sorted by path.
    static func known() throws -> [String] {
        let manager = FileManager.default
        var paths: [String] = []
        let shared = try sharedPath()
        if manager.fileExists(atPath: shared) { paths.append(shared) }
        let root = try dataFolder().appendingPathComponent("journals")
        let gateways = (try? manager.contentsOfDirectory(atPath: root.path)) ?? []
        for gateway in gateways.sorted() {
            let folder = root.appendingPathComponent(gateway)
            let files = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            paths += files.filter { $0.hasSuffix(".sqlite") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        return paths
    }

    /// The per-user data folder of `mpos`.
    static func dataFolder() throws -> URL {
        #if os(Linux)
            let environment = ProcessInfo.processInfo.environment
            let data: URL
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                data = URL(fileURLWithPath: xdg)
            } else {
                data = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
            }
        #else
            guard let data = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            else { throw CLIFailure("no Application Support folder for the journal; give --journal PATH") }
        #endif
        return data.appendingPathComponent("mpos")
    }

    /// `text` as one file name: letters, digits, `_` and `-` kept, anything else (a `/`, a
    /// `.`, from a gateway that names itself oddly) as `-`, at most 64 characters.
    static func component(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "-"
        }
        let name = String(kept.prefix(64))
        return name.isEmpty ? "-" : name
    }

    /// Refuses a directory, a place that cannot be written, and a file that is not SQLite,
    /// before anything starts (the journal itself refuses another SQLite database).
    static func check(_ path: String, option: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else {
                throw CLIFailure("\(option) is a directory; give a file such as \(path)/journal.sqlite")
            }
            guard manager.isWritableFile(atPath: path) else { throw CLIFailure("\(option) cannot be written") }
            if let handle = FileHandle(forReadingAtPath: path) {
                let header = (try? handle.read(upToCount: 16)) ?? Data()
                try? handle.close()
                guard header.isEmpty || header == Data("SQLite format 3\0".utf8) else {
                    throw CLIFailure("\(option) is not an mpos journal (not an SQLite file)")
                }
            }
            return
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            if !manager.fileExists(atPath: directory) {
                try manager.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw CLIFailure("\(option): cannot create the directory \(directory)")
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw CLIFailure("\(option): cannot write in \(directory)")
        }
    }
}
