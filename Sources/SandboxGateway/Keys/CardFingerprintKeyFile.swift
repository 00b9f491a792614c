import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A card-fingerprint key kept in a file: the key's hexadecimal text (64 digits for 32 bytes)
/// and a newline, the file 0600 (only its owner may read it) and apart from the database.
///
/// ```sh
/// (umask 077; openssl rand -hex 32 > /etc/mpos/fingerprint.key)
/// mpos gateway serve --fingerprint-key /etc/mpos/fingerprint.key
/// ```
public enum CardFingerprintKeyFile {
    /// The most bytes a key file may have (a key and some white space).
    static let maximumSize = 4096

    /// Reads the key in the file at `path`.
    ///
    /// - Throws: ``GatewayStartupError/fingerprintKeyUnusable`` when the file is missing,
    ///   unreadable, not a regular file, readable by group or others, or not a key.
    public static func read(path: String) throws(GatewayStartupError) -> CardFingerprintKey {
        func unusable(_ why: String) -> GatewayStartupError {
            .fingerprintKeyUnusable(source: "The card-fingerprint key file \(path)", why: why)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unusable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unusable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw unusable("it is not a regular file") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw unusable(
                "group or others may read it (mode \(String(mode, radix: 8))); make it 0600 with chmod 600")
        }
        guard Int(status.st_size) <= maximumSize else {
            throw unusable("it is \(status.st_size) bytes, not a key")
        }
        let data: Data
        do {
            data =
                try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).read(
                    upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw unusable("\(error.localizedDescription)")
        }
        guard data.count <= maximumSize, let text = String(data: data, encoding: .utf8) else {
            throw unusable("it is not a key (64 hex digits)")
        }
        do {
            return try CardFingerprintKey(hex: text)
        } catch {
            throw unusable("\(error)")
        }
    }

    /// Writes `key` to a new key file at `path` (0600, its missing folders 0700) unless a file
    /// is there already, and returns the key the file holds with whether this call made it.
    ///
    /// The file appears whole or not at all (written beside it, then linked into place), and
    /// a file made meanwhile by another process is kept and read, never overwritten.
    ///
    /// - Throws: ``GatewayStartupError/fingerprintKeyUnusable`` when the file cannot be made,
    ///   or the one found cannot be read as ``read(path:)`` does.
    public static func create(
        path: String, key: CardFingerprintKey
    ) throws(GatewayStartupError) -> (key: CardFingerprintKey, created: Bool) {
        func unusable(_ why: String) -> GatewayStartupError {
            .fingerprintKeyUnusable(source: "The card-fingerprint key file \(path)", why: why)
        }
        if FileManager.default.fileExists(atPath: path) { return (try read(path: path), false) }
        let folder = (path as NSString).deletingLastPathComponent
        do { try PrivateFiles.createFolders(folder) } catch { throw unusable("\(error)") }
        let temporary = (folder.isEmpty ? "." : folder) + "/.fingerprint-key-\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, PrivateFiles.fileMode)
        guard descriptor >= 0 else { throw unusable("cannot create it: \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            guard fchmod(descriptor, PrivateFiles.fileMode) == 0 else {
                throw PrivateFiles.Failure("restrict", temporary, errno: errno)
            }
            try handle.write(contentsOf: Data(key.fileText.utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            // The write's error is what the caller hears.
            try? handle.close()
            throw unusable("cannot write it: \(error)")
        }
        // link fails on an existing name where rename would replace it: a key another process
        // made first wins, and both processes use it.
        if link(temporary, path) != 0 {
            let code = errno
            guard code == EEXIST else {
                throw unusable("cannot create it: \(String(cString: strerror(code)))")
            }
            return (try read(path: path), false)
        }
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
        return (key, true)
    }
}
