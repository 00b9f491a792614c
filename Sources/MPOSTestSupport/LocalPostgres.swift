#if os(Linux) || os(macOS)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server for tests and benchmarks: a new data directory under the
/// temporary directory, a free loopback port, trust authentication for the `postgres` role.
///
/// When the process runs as root (CI does), the server's programs run as the `postgres`
/// user, since PostgreSQL refuses to run as root. ``stop()`` stops the server and deletes
/// its directory.
///
/// ```swift
/// let server = try LocalPostgres.start()
/// defer { server.stop() }
/// let url = try server.createDatabase("ledger")  // postgres://postgres@127.0.0.1:PORT/ledger
/// ```
public final class LocalPostgres: Sendable {
    /// The directory holding `initdb`, `pg_ctl` and `createdb`, or nil when PostgreSQL is
    /// not installed (looked up on `PATH` and in `/usr/lib/postgresql/*/bin`).
    public static let binDirectory: String? = {
        let fileManager = FileManager.default
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let debian = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: debian)) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        candidates += versions.map { "\(debian)/\($0)/bin" }
        candidates += ["/opt/homebrew/bin", "/usr/local/bin"]
        return candidates.first { directory in
            ["initdb", "pg_ctl", "createdb"].allSatisfy { fileManager.isExecutableFile(atPath: "\(directory)/\($0)") }
        }
    }()

    /// Whether PostgreSQL's programs are installed here.
    public static var isInstalled: Bool { binDirectory != nil }

    /// The server's loopback port.
    public let port: Int
    /// The superuser role, trusted without a password.
    public let user = "postgres"
    /// The directory of the data, the socket and the log.
    public let directory: URL

    private let bin: String

    private init(port: Int, directory: URL, bin: String) {
        self.port = port
        self.directory = directory
        self.bin = bin
    }

    /// Creates a data directory and starts a server on a free loopback port.
    ///
    /// - Parameter durable: false turns `fsync` off, for tests that do not measure commits.
    /// - Throws: ``LocalPostgresError`` when PostgreSQL is not installed or a program fails.
    public static func start(durable: Bool = true) throws -> LocalPostgres {
        guard let bin = binDirectory else { throw LocalPostgresError("PostgreSQL (initdb, pg_ctl) is not installed") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mpos-postgres-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if isRoot { try run("/bin/chown", ["-R", "postgres:", directory.path], asPostgres: false) }
        let data = directory.appendingPathComponent("data").path
        do {
            try run(
                "\(bin)/initdb",
                ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
            var lastError: (any Error)?
            for _ in 0..<3 {
                let port = try freePort()
                let options = [
                    "-p \(port)", "-k \(directory.path)", "-c listen_addresses=127.0.0.1",
                    "-c fsync=\(durable ? "on" : "off")", "-c max_connections=200",
                ].joined(separator: " ")
                do {
                    try run(
                        "\(bin)/pg_ctl",
                        ["-D", data, "-l", directory.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60", "start"])
                    return LocalPostgres(port: port, directory: directory, bin: bin)
                } catch {
                    // Another process may have taken the port between the probe and the start.
                    lastError = error
                }
            }
            throw lastError ?? LocalPostgresError("pg_ctl start failed")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The URL of database `name` on this server (which may not exist yet).
    public func url(database name: String = "postgres") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(name)"
    }

    /// Creates database `name` and returns its URL.
    ///
    /// - Throws: ``LocalPostgresError`` when `createdb` fails (the name exists, the server is down).
    @discardableResult
    public func createDatabase(_ name: String) throws -> String {
        try Self.run("\(bin)/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, name])
        return url(database: name)
    }

    /// Stops the server now (`pg_ctl stop -m immediate` when `immediately`, else fast
    /// shutdown), keeping its directory: the server can be thought of as crashed or gone.
    ///
    /// - Throws: ``LocalPostgresError`` when `pg_ctl` fails.
    public func stopServer(immediately: Bool = false) throws {
        try Self.run(
            "\(bin)/pg_ctl",
            ["-D", directory.appendingPathComponent("data").path, "-m", immediately ? "immediate" : "fast", "-w", "stop"])
    }

    /// Stops the server (if it runs) and deletes its directory.
    public func stop() {
        try? stopServer()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Processes

    private static var isRoot: Bool { geteuid() == 0 }

    /// Runs `program` with `arguments` and waits; as the `postgres` user when this process
    /// is root and `asPostgres`.
    ///
    /// Spawned and reaped directly (posix_spawn, waitpid) rather than with Foundation's
    /// `Process`, whose wait on Linux also waits for descriptors that the server started by
    /// `pg_ctl start` inherits and keeps open for its whole life.
    ///
    /// - Throws: ``LocalPostgresError`` with the program's output when it exits non-zero.
    private static func run(_ program: String, _ arguments: [String], asPostgres: Bool = true) throws {
        var command = [program] + arguments
        if isRoot && asPostgres {
            if FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
                command = ["/usr/sbin/runuser", "-u", "postgres", "--"] + command
            } else {
                let quoted = command.map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }
                command = ["/bin/su", "postgres", "-c", quoted.joined(separator: " ")]
            }
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-postgres-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: log) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw LocalPostgresError("could not start \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitedNormally = status & 0x7F == 0
        let exitCode = (status >> 8) & 0xFF
        guard exitedNormally && exitCode == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw LocalPostgresError(
                "\((program as NSString).lastPathComponent) exited with status \(status): \(output.suffix(2000))")
        }
    }

    /// A loopback TCP port nothing listens on now.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LocalPostgresError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw LocalPostgresError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LocalPostgresError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a throwaway PostgreSQL server could not start, stop or create a database.
public struct LocalPostgresError: Error, CustomStringConvertible {
    /// What failed, with the program's output.
    public let description: String

    init(_ description: String) { self.description = description }
}
#endif
