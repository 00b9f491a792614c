import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a URL's host into the addresses a connection to it would use; the seam between the
/// destination check and DNS (unit tests answer as a changing DNS would).
protocol WebhookHostResolver: Sendable {
    /// The host's addresses; empty when it does not resolve.
    func addresses(of host: String) async -> [WebhookAddress]
}

/// The system's resolver (`getaddrinfo`, as connections use it), on NIO's blocking-I/O pool.
///
/// It reads numeric hosts as the C library does, shorthand IPv4 spellings (`2852039166`,
/// `0x7f.1`) included, so the check sees the address those spellings reach.
struct SystemWebhookHostResolver: WebhookHostResolver {
    func addresses(of host: String) async -> [WebhookAddress] {
        var name = Substring(host)
        if name.first == "[", name.last == "]" { name = name.dropFirst().dropLast() }
        let query = String(name)
        if let literal = WebhookAddress(query) { return [literal] }
        // A lookup that cannot run resolves to no address, which the destination policy refuses.
        return (try? await NIOThreadPool.singleton.runIfActive { Self.lookUp(query) }) ?? []
    }

    /// Blocking `getaddrinfo` for TCP: the unique addresses in the order it gives them.
    private static func lookUp(_ host: String) -> [WebhookAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [WebhookAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            defer { entry = info.ai_next }
            guard let socket = info.ai_addr else { continue }
            let address: WebhookAddress?
            switch info.ai_family {
            case AF_INET:
                address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    withUnsafeBytes(of: v4.pointee.sin_addr) { WebhookAddress(bytes: Array($0)) }
                }
            case AF_INET6:
                address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    withUnsafeBytes(of: v6.pointee.sin6_addr) { WebhookAddress(bytes: Array($0)) }
                }
            default:
                address = nil
            }
            if let address, !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }
}
