#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port for delivery-failure tests: listening (the kernel accepts connections,
/// nothing ever answers them) or closed (connections are refused).
struct SilentPort {
    let port: Int
    private let descriptor: Int32

    /// A port that accepts and never answers, until ``close()``.
    static func listening() -> SilentPort { open(listen: true) }

    /// A port nothing listens on: bound once to find a free one, then let go.
    static func closed() -> Int {
        let socket = open(listen: false)
        socket.close()
        return socket.port
    }

    private static func open(listen: Bool) -> SilentPort {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                precondition(bind(descriptor, raw, length) == 0, "bind")
                if listen { precondition(startListening(descriptor) == 0, "listen") }
                precondition(getsockname(descriptor, raw, &length) == 0, "getsockname")
            }
        }
        return SilentPort(port: Int(UInt16(bigEndian: address.sin_port)), descriptor: descriptor)
    }

    private static func startListening(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.listen(descriptor, 16)
        #else
            Darwin.listen(descriptor, 16)
        #endif
    }

    /// Closes the port.
    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
