#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address a webhook's host resolved to: 4 bytes (IPv4) or 16 (IPv6), in network order.
///
/// The destination rules (``WebhookDestinationPolicy``) read these bytes, never the URL's
/// spelling of the host, so `2852039166`, `0xa9.0xfe.0xa9.0xfe` and `::ffff:169.254.169.254`
/// are all 169.254.169.254 to them.
public struct WebhookAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// An address from its bytes; `nil` unless there are 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An address in its standard numeric form (`10.0.0.1`, `::1`, `[fe80::1]`); `nil` for
    /// anything else, host names and IPv4's shorthand spellings (`0x7f.1`) included, which
    /// only a resolver may interpret.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.first == "[", text.last == "]" { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Whether this is an IPv6 address.
    public var isIPv6: Bool { bytes.count == 16 }

    /// The standard numeric form (`169.254.169.254`, `fd00:ec2::254`).
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var bytes = bytes
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = bytes.withUnsafeMutableBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
