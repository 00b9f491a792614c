import Foundation

/// Where a payment command keeps its journal: `--journal PATH`, else with `--gateway` a
/// persistent per-user file (so that the next run finishes what a killed one left open),
/// else (the embedded sandbox, whose gateway does not outlive the command) nowhere lasting.
enum JournalLocation {
    /// The journal file for these options, checked; nil when the command may use a temporary
    /// one.
    ///
    /// - Throws: `CLIFailure` when the path is a directory, cannot be written, or is a file
    ///   that is not a journal.
    ///
    /// - Parameter persistent: whether the command needs a lasting journal even without
    ///   `--gateway` (a networked terminal's payments).
    static func resolve(_ options: TerminalOptions, persistent: Bool = false) throws -> String? {
        if let given = options.journal {
            guard !given.isEmpty else { throw CLIFailure("--journal needs a file path, e.g. ./journal.sqlite") }
            try check(given, option: "--journal \(given)")
            return given
        }
        guard options.gateway != nil || persistent else { return nil }
        let path = try defaultPath()
        try check(path, option: "the default journal \(path)")
        return path
    }

    /// The per-user journal: `$XDG_DATA_HOME/mpos/journal.sqlite` (else
    /// `~/.local/share/mpos/journal.sqlite`) on Linux, Application Support on Apple platforms.
    static func defaultPath() throws -> String {
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
        return data.appendingPathComponent("mpos").appendingPathComponent("journal.sqlite").path
    }

    /// Refuses a directory, a place that cannot be written, and a file that is not SQLite,
    /// before anything starts (the journal itself refuses another SQLite database).
    private static func check(_ path: String, option: String) throws {
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
        do { try manager.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw CLIFailure("\(option): cannot create the directory \(directory)")
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw CLIFailure("\(option): cannot write in \(directory)")
        }
    }
}
