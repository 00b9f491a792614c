import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files and folders only their owner may read: files 0600, folders 0700, whatever the
/// process's umask. The gateway's database, its write-ahead log and the key file are made
/// this way, as card data and the key that fingerprints cards must not be readable by the
/// other users of the machine.
enum PrivateFiles {
    /// The mode of every file the gateway creates.
    static let fileMode: mode_t = 0o600
    /// The mode of every folder the gateway creates.
    static let folderMode: mode_t = 0o700

    /// Why a private file or folder could not be made.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ what: String, _ path: String, errno code: Int32) {
            description = "cannot \(what) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Creates `path` and each missing folder above it with mode 0700; folders that exist are
    /// left as they are (they may be the user's own).
    static func createFolders(_ path: String) throws {
        guard !path.isEmpty, !FileManager.default.fileExists(atPath: path) else { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path { try createFolders(parent) }
        if mkdir(path, folderMode) != 0 {
            let code = errno
            // Made by someone else meanwhile: theirs to keep.
            if code == EEXIST { return }
            throw Failure("create the folder", path, errno: code)
        }
        // mkdir's mode goes through the umask; chmod's does not.
        guard chmod(path, folderMode) == 0 else { throw Failure("restrict the folder", path, errno: errno) }
    }

    /// Creates the empty file `path` with mode 0600 unless it exists, and restricts an existing
    /// one to 0600 (a database made by an older version was 0644). SQLite gives a database's
    /// `-wal` and `-shm` files the database's own mode, so they follow.
    static func prepareFile(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw Failure("create", path, errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, fileMode) == 0 else { throw Failure("restrict", path, errno: errno) }
    }

    /// Restricts `path` to 0600 when it exists.
    static func restrictIfPresent(_ path: String) throws {
        if chmod(path, fileMode) != 0, errno != ENOENT { throw Failure("restrict", path, errno: errno) }
    }
}
