import Foundation

/// Where a PostgreSQL database is and who connects to it, read from a URL of the form
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
///
/// The password may be percent-encoded in the URL, or left out and given in the
/// environment variable `MPOS_DATABASE_PASSWORD` so that it stays out of command lines.
/// The port defaults to 5432. The description never shows the password.
///
/// ```swift
/// let url = try PostgresURL("postgres://gateway@db.internal:5432/sandbox")
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable a password is read from when the URL carries none.
    public static let passwordVariable = "MPOS_DATABASE_PASSWORD"

    /// The role to connect as.
    public var user: String
    /// The password, or nil to connect without one (trust or peer authentication).
    public var password: String?
    /// The server's host name or address (without brackets for IPv6).
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The database's name.
    public var database: String

    /// Creates connection settings from their parts.
    public init(user: String, password: String? = nil, host: String, port: Int = 5432, database: String) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
    }

    /// Parses `string`; a URL without a password takes `MPOS_DATABASE_PASSWORD` from
    /// `environment` when it is set and not empty.
    ///
    /// - Throws: ``PostgresURLError`` when the scheme is not `postgres` or `postgresql`, the
    ///   user, host or database is missing, the port is not a number from 1 to 65535, a part's
    ///   percent-encoding is broken, or the URL carries a query or fragment.
    public init(_ string: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresURLError) {
        let schemes = ["postgres://", "postgresql://"]
        guard let scheme = schemes.first(where: { string.lowercased().hasPrefix($0) }) else {
            throw .badScheme
        }
        let rest = string.dropFirst(scheme.count)
        if rest.contains("?") || rest.contains("#") { throw .unsupportedOptions }
        guard let slash = rest.firstIndex(of: "/") else { throw .missingDatabase }
        let authority = rest[..<slash]
        let path = rest[rest.index(after: slash)...]
        guard !path.isEmpty, !path.contains("/") else { throw .missingDatabase }
        guard let at = authority.lastIndex(of: "@") else { throw .missingUser }
        let userInfo = authority[..<at]
        let hostPort = authority[authority.index(after: at)...]

        let userPart: Substring
        var password: String?
        if let colon = userInfo.firstIndex(of: ":") {
            userPart = userInfo[..<colon]
            password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "password")
        } else {
            userPart = userInfo
        }
        let user = try Self.decode(userPart, part: "user")
        guard !user.isEmpty else { throw .missingUser }
        if password == nil, let fromEnvironment = environment[Self.passwordVariable], !fromEnvironment.isEmpty {
            password = fromEnvironment
        }

        let (host, port) = try Self.splitHostPort(hostPort)
        self.init(
            user: user, password: password, host: host, port: port,
            database: try Self.decode(path, part: "database"))
    }

    /// The URL again, with the password replaced by `***`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(shownHost):\(port)/\(database)"
    }

    private static func splitHostPort(_ text: Substring) throws(PostgresURLError) -> (String, Int) {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .missingHost }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw .badPort
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .missingHost }
        var port = 5432
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
                let number = Int(portText), (1...65535).contains(number)
            else { throw .badPort }
            port = number
        }
        return (String(host), port)
    }

    private static func decode(_ text: Substring, part: String) throws(PostgresURLError) -> String {
        guard let decoded = String(text).removingPercentEncoding else { throw .badEncoding }
        return decoded
    }
}

/// Why a PostgreSQL URL was refused. Never shows the URL's password.
public struct PostgresURLError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Reason: Hashable {
        case badScheme, missingUser, missingHost, badPort, missingDatabase, badEncoding, unsupportedOptions
    }
    private let reason: Reason

    /// The URL does not start with `postgres://` or `postgresql://`.
    public static let badScheme = Self(reason: .badScheme)
    /// The URL names no user (`postgres://USER@HOST/DB`).
    public static let missingUser = Self(reason: .missingUser)
    /// The URL names no host.
    public static let missingHost = Self(reason: .missingHost)
    /// The port is not a number from 1 to 65535.
    public static let badPort = Self(reason: .badPort)
    /// The URL names no database (`…/DB`), or its path has more than one part.
    public static let missingDatabase = Self(reason: .missingDatabase)
    /// A percent-encoded part (`%zz`) does not decode.
    public static let badEncoding = Self(reason: .badEncoding)
    /// The URL carries a query (`?sslmode=…`) or a fragment, which the gateway does not read.
    public static let unsupportedOptions = Self(reason: .unsupportedOptions)

    /// What is wrong, for the operator.
    public var description: String {
        let form = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
        switch reason {
        case .badScheme: return "The database URL must start with postgres:// (\(form))."
        case .missingUser: return "The database URL names no user (\(form))."
        case .missingHost: return "The database URL names no host (\(form))."
        case .badPort: return "The database URL's port must be a number from 1 to 65535."
        case .missingDatabase: return "The database URL names no database (\(form))."
        case .badEncoding: return "A part of the database URL has a broken percent-encoding."
        case .unsupportedOptions: return "The database URL may not carry options after ? or #."
        }
    }
}
