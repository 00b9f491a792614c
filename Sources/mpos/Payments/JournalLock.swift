import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a journal's side file, `PATH.lock`, held for a
/// whole command, so that two commands never write one journal at once. The kernel drops it
/// when the process ends, a SIGKILL included.
///
/// The file also says which command holds it (`pid N`) and, while a command runs, since when
/// results may have gone unshown (`unshown-since SECONDS`): a command killed before printing
/// its result leaves that line, and the next one tells what those runs did.
final class JournalLock {
    /// How long a command waits for another one on the same journal before it gives up.
    static let wait: Duration = .seconds(3)

    private let descriptor: Int32
    /// When this command started.
    let startedAt: Date
    /// When the earliest earlier run whose result may not have been shown started; nil when
    /// every earlier run ended after showing it.
    let unshownSince: Date?

    /// Takes the lock of the journal at `journalPath`, waiting up to ``wait`` for a command
    /// that holds it.
    ///
    /// - Throws: `CLIFailure` when the lock file cannot be opened or the lock stays held.
    static func acquire(journalPath: String) async throws -> JournalLock {
        let path = journalPath + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // 0600 whatever the umask, as every file beside the journal (it names the holder's pid).
        guard descriptor >= 0, fchmod(descriptor, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw CLIFailure("--journal \(journalPath): cannot create \(path): \(reason)")
        }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                let holder = Self.fields(of: descriptor)["pid"].map { " (pid \($0))" } ?? ""
                close(descriptor)
                throw CLIFailure("the journal \(journalPath) is in use by another mpos command\(holder)")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let startedAt = Date()
        let earlier = Self.fields(of: descriptor)["unshown-since"].flatMap(Double.init).map {
            Date(timeIntervalSince1970: $0)
        }
        let lock = JournalLock(descriptor: descriptor, startedAt: startedAt, unshownSince: earlier)
        lock.record(unshownSince: min(earlier ?? startedAt, startedAt))
        return lock
    }

    private init(descriptor: Int32, startedAt: Date, unshownSince: Date?) {
        self.descriptor = descriptor
        self.startedAt = startedAt
        self.unshownSince = unshownSince
    }

    /// Whether what earlier runs did has been told.
    private var told = false

    /// Notes that what earlier runs did has been told: only this command's own results are
    /// left unshown until ``release()``.
    func earlierRunsTold() {
        told = true
        record(unshownSince: startedAt)
    }

    /// Lets the next command in, noting that this command showed its result (or its error);
    /// what earlier runs did stays to be told when this command did not get to tell it.
    func release() {
        guard !released else { return }
        released = true
        record(unshownSince: told ? nil : unshownSince)
        close(descriptor)
    }

    /// Whether ``release()`` ran: the descriptor is closed, and its number may be another file's.
    private var released = false

    /// Rewrites the file: who holds the lock, and since when results may be unshown.
    private func record(unshownSince: Date?) {
        var text = "pid \(getpid())\n"
        if let unshownSince { text += "unshown-since \(unshownSince.timeIntervalSince1970)\n" }
        _ = ftruncate(descriptor, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The file's `NAME VALUE` lines.
    private static func fields(of descriptor: Int32) -> [String: String] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return [:] }
        var fields: [String: String] = [:]
        for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1)
            if words.count == 2 { fields[String(words[0])] = String(words[1]) }
        }
        return fields
    }
}
