#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a host to bind names this machine only: `localhost`, an IPv4 address in
/// 127.0.0.0/8, `::1` (or IPv4-mapped 127.x.x.x). Any other name counts as reachable from
/// the network, even one that resolves to loopback: the rule must not depend on a resolver.
enum LoopbackHost {
    static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "localhost." { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return withUnsafeBytes(of: ipv4) { $0[0] } == 127
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, name, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: ipv6) { [UInt8]($0) }
        let zeros = [UInt8](repeating: 0, count: 10)
        if bytes == zeros + [0, 0, 0, 0, 0, 1] { return true }
        // ::ffff:127.x.x.x, an IPv4 loopback address written as IPv6.
        return Array(bytes.prefix(12)) == zeros + [0xFF, 0xFF] && bytes[12] == 127
    }
}
