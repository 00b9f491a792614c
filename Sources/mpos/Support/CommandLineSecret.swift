import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A secret a command reads from, in this order: its option on the command line, a file
/// (`--…-file`), an environment variable, or a prompt without echo when standard input is a
/// terminal. A value on the command line still works, with a warning: every local user can
/// read it in `ps`.
struct CommandLineSecret {
    /// The option that takes the value itself, such as `--password`.
    let option: String
    /// The option that names a file holding it, such as `--password-file`.
    let fileOption: String
    /// The environment variable holding it, such as `MPOS_PASSWORD`.
    let environmentVariable: String

    /// The secret from the first source given, or `nil` when none is and standard input is
    /// not a terminal (the caller says what was missing).
    ///
    /// - Parameters:
    ///   - value: what `option` was given.
    ///   - file: what `fileOption` was given.
    ///   - prompt: what to ask on a terminal, such as "Password for sandbox: "; `nil` never asks.
    /// - Throws: `CLIFailure` for a file that is missing, unreadable, empty or open to other
    ///   users, or an empty answer at the prompt.
    func resolve(
        value: String?, file: String?, prompt: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        // A command that opens its session twice (journal finish identifies the gateway first)
        // warns and asks once.
        let key = option + "\u{0}" + (prompt ?? "")
        if let known = Self.resolved.withLock({ $0[key] }) { return known }
        let secret = try read(value: value, file: file, prompt: prompt, environment: environment)
        if let secret { Self.resolved.withLock { $0[key] = secret } }
        return secret
    }

    /// What this process already read, by option and prompt.
    private static let resolved = Mutex<[String: String]>([:])

    private func read(
        value: String?, file: String?, prompt: String?, environment: [String: String]
    ) throws -> String? {
        if let value {
            CLIOutput.error(
                "warning: \(option) on the command line is visible to other users of this machine (ps); "
                    + "use \(fileOption) FILE or \(environmentVariable) instead")
            return value
        }
        if let file { return try Self.firstLine(of: file, option: fileOption) }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        guard let prompt, let answer = try Self.askWithoutEcho(prompt) else { return nil }
        guard !answer.isEmpty else { throw CLIFailure("no \(option.dropFirst(2)) was entered") }
        return answer
    }

    /// The first line of the file at `path`, without its line ending.
    ///
    /// - Throws: `CLIFailure` naming `option` when the file is missing, not a regular file,
    ///   unreadable, open to its group or others, or empty.
    static func firstLine(of path: String, option: String) throws -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason =
                errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
            throw CLIFailure("\(option) \(path): \(reason)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw CLIFailure("\(option) \(path): not a regular file")
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw CLIFailure(
                "\(option) \(path): other users may read it (mode \(String(permissions, radix: 8))); "
                    + "run chmod 600 \(path)")
        }
        let contents = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
        let text = String(decoding: contents, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let secret = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !secret.isEmpty else { throw CLIFailure("\(option) \(path): the file is empty") }
        return secret
    }

    /// Asks on standard error and reads a line from standard input with echo off; `nil` when
    /// standard input is not a terminal.
    ///
    /// - Throws: `CLIFailure` when the terminal closes before a line is read.
    static func askWithoutEcho(_ prompt: String) throws -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var silent = original
        // No echo of what is typed, but the newline, so that the next output starts a line.
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        // Ctrl-C (or SIGTERM) at the prompt must not leave the terminal without echo.
        terminalBeforePrompt = original
        let interrupt = signal(SIGINT, restoreTerminalAndStop)
        let terminate = signal(SIGTERM, restoreTerminalAndStop)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGTERM, terminate)
        }
        // Echo goes off before the prompt shows, so that nothing typed after it is echoed.
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(strippingNewline: true) else {
            throw CLIFailure("standard input closed before a line was entered")
        }
        return line
    }
}

/// The terminal's settings before a prompt turned echo off, for ``restoreTerminalAndStop(_:)``.
/// Set before its handler is installed and not changed while it is.
nonisolated(unsafe) private var terminalBeforePrompt = termios()

/// A signal handler: puts the terminal's settings back and lets the signal take its default
/// course (tcsetattr, signal and raise are safe in a signal handler).
private func restoreTerminalAndStop(_ received: Int32) {
    tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforePrompt)
    signal(received, SIG_DFL)
    raise(received)
}
