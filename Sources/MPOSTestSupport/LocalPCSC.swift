#if os(Linux)
    import Foundation
    import Glibc
    import Synchronization

    /// A pcscd of the test's own with vsmartcard's vpcd driver, in a temporary folder, as
    /// ``LocalPostgres`` starts a PostgreSQL server, for tests and benchmarks: vpcd waits for cards
    /// on ``cardPort`` (its first slot) and `cardPort + 1` (its second).
    ///
    /// ```swift
    /// let pcsc = try LocalPCSC()
    /// defer { pcsc.stop() }
    /// // mpos card emulate --vpcd 127.0.0.1:\(pcsc.cardPort); clients get pcsc.environment
    /// ```
    ///
    /// pcscd 1.9 always listens on `/run/pcscd/pcscd.comm` (it reads no socket name from the
    /// environment; only the client library reads `PCSCLITE_CSOCK_NAME`), so it runs in a mount
    /// namespace of its own (`unshare -m`, root) where `/run/pcscd` is the temporary folder: the
    /// machine's pcscd, and other tests' ones, are left alone, and the clients reach this one through
    /// `PCSCLITE_CSOCK_NAME`.
    public final class LocalPCSC: Sendable {
        /// Why the stack cannot be started here.
        public struct Unavailable: Error, CustomStringConvertible {
            /// What is missing or failed.
            public let description: String
            /// An error saying `description`.
            public init(description: String) { self.description = description }
        }

        /// The vpcd driver pcscd loads.
        public static let driver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

        /// Whether pcscd and the vpcd driver are installed; the reason when not.
        public static var missing: String? {
            let daemon = ["/usr/sbin/pcscd", "/usr/bin/pcscd"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            if daemon == nil {
                return "pcscd is not installed (apt-get install pcscd vsmartcard-vpcd; .ci/run does)"
            }
            if !FileManager.default.fileExists(atPath: driver) { return "vsmartcard-vpcd is not installed" }
            return nil
        }

        /// pcscd's process (its wrapper's), reached under the lock.
        private let process = Mutex(Process())
        /// The temporary folder: the reader file, pcscd's socket and its log.
        public let directory: URL
        /// The port vpcd's first slot waits on.
        public let cardPort: Int
        /// The environment a PC/SC client needs to reach this pcscd.
        public var environment: [String: String] {
            ["PCSCLITE_CSOCK_NAME": directory.appendingPathComponent("run/pcscd.comm").path]
        }
        /// The first slot's reader name as PC/SC lists it.
        public let readerName = "MPOS vpcd 00 00"

        /// Starts pcscd and waits until vpcd listens on both ports.
        /// - Throws: ``Unavailable`` when pcscd or vpcd is missing or pcscd does not start.
        public init() throws {
            if let missing = Self.missing { throw Unavailable(description: missing) }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mpos-pcsc-\(UUID().uuidString)")
            let conf = directory.appendingPathComponent("conf")
            let run = directory.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
            cardPort = try Self.freePortPair()
            try """
            FRIENDLYNAME "MPOS vpcd"
            DEVICENAME /dev/null:\(cardPort)
            LIBPATH \(Self.driver)
            CHANNELID \(cardPort)

            """.write(to: conf.appendingPathComponent("vpcd"), atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: "/run/pcscd", withIntermediateDirectories: true)
            let log = directory.appendingPathComponent("pcscd.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            try process.withLock { process in
                process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
                // pcscd's own log stays at its default (errors only): no APDU, so no card data, is written.
                process.arguments = [
                    "-m", "--propagation", "private", "sh", "-c",
                    "mount --bind \"$1\" /run/pcscd && exec pcscd -f -c \"$2\"", "pcscd", run.path, conf.path,
                ]
                process.standardOutput = handle
                process.standardError = handle
                try process.run()
            }
            // Ready once the socket exists and vpcd listens on both slots' ports.
            let socket = run.appendingPathComponent("pcscd.comm").path
            for _ in 0..<200 {
                if FileManager.default.fileExists(atPath: socket), Self.listening(cardPort),
                    Self.listening(cardPort + 1)
                {
                    return
                }
                guard isRunning else { break }
                usleep(50_000)
            }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let state =
                "socket \(FileManager.default.fileExists(atPath: socket)), ports \(cardPort) "
                + "\(Self.listening(cardPort)) \(Self.listening(cardPort + 1)), running \(isRunning)"
            stop()
            throw Unavailable(description: "pcscd did not start (\(state)): \(output.suffix(400))")
        }

        /// Stops pcscd and removes the folder.
        public func stop() {
            process.withLock { process in
                if process.isRunning {
                    process.terminate()
                    process.waitUntilExit()
                }
            }
            try? FileManager.default.removeItem(at: directory)
        }

        /// Whether pcscd still runs.
        private var isRunning: Bool { process.withLock { $0.isRunning } }

        /// A port whose successor is free too, for vpcd's two slots.
        public static func freePortPair() throws -> Int {
            for _ in 0..<50 {
                let port = try freePort()
                if port < 65_535, !listening(port + 1), (try? bindable(port + 1)) == true { return port }
            }
            throw Unavailable(description: "no two free ports in a row")
        }

        private static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                    guard bind(fd, pointer, size) == 0 else { return -1 }
                    return getsockname(fd, pointer, &size)
                }
            }
            guard bound == 0 else { throw Unavailable(description: "cannot bind a port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        private static func bindable(_ port: Int) throws -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = INADDR_ANY
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        /// Whether something listens on TCP `port`, read from /proc/net/tcp: connecting to find out
        /// would put a card into vpcd.
        public static func listening(_ port: Int) -> Bool {
            // Read to the end: procfs reports a size of 0 and hands the table out a page at a time.
            guard let data = FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() else {
                return false
            }
            let table = String(decoding: data, as: UTF8.self)
            let hex = String(format: ":%04X", port)
            return table.split(separator: "\n").dropFirst().contains { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(hex) && fields[3] == "0A"
            }
        }
    }
#endif
