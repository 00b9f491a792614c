import Foundation

/// Files only their owner may read (0600) in folders only their owner may open (0700), set
/// with `chmod` after creation so the process's umask does not decide. The journal, its
/// write-ahead log and the offline store hold payment records; the offline key unlocks them.
enum PrivateFile {
    /// The mode of every file the SDK creates.
    static let fileMode = 0o600
    /// The mode of every folder the SDK creates.
    static let folderMode = 0o700

    /// Creates `path`'s missing folders (0700) and, when it does not exist, the empty file
    /// `path` (0600). SQLite gives a database's `-wal` and `-shm` files the database's mode,
    /// so a journal created here has all three private.
    static func prepare(_ path: String) throws {
        let manager = FileManager.default
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !folder.isEmpty, !manager.fileExists(atPath: folder) {
            try manager.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: folderMode]
            )
            try manager.setAttributes([.posixPermissions: folderMode], ofItemAtPath: folder)
        }
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: fileMode])
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            try manager.setAttributes([.posixPermissions: fileMode], ofItemAtPath: path)
        }
    }

    /// The mode of `path` when group or others have any access to it, nil when only its owner
    /// has: a secret in such a file may already have been read.
    ///
    /// - Throws: when its attributes cannot be read.
    static func modeOpenToOthers(_ path: String) throws -> Int? {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return mode & 0o077 == 0 ? nil : mode
    }

    /// Writes `data` to `path` as a new 0600 file (made empty and private first, then filled,
    /// so the umask's mode never shows), replacing one that is there.
    static func write(_ data: Data, to path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
        try prepare(path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }  // Synced below; a failed close loses nothing.
        try handle.write(contentsOf: data)
        try handle.synchronize()
    }

    /// Restricts `path` and its `-wal` and `-shm` files, those that exist, to 0600.
    static func restrict(_ path: String) throws {
        let manager = FileManager.default
        for file in [path, path + "-wal", path + "-shm"] where manager.fileExists(atPath: file) {
            try manager.setAttributes([.posixPermissions: fileMode], ofItemAtPath: file)
        }
    }
}
