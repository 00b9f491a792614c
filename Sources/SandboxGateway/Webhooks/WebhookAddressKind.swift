/// What an address is to the webhook destination rules (``WebhookDestinationPolicy``).
public enum WebhookAddressKind: String, Sendable, Hashable, CaseIterable {
    /// A globally routable unicast address: always allowed.
    case `public`
    /// 127.0.0.0/8, ::1, and 0.0.0.0/8 and :: (which reach this host): allowed with the
    /// `loopback` scope.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), 198.18/15, fc00::/7 and
    /// fec0::/10: allowed with the `private` scope.
    case privateNetwork
    /// 169.254/16 and fe80::/10: never allowed.
    case linkLocal
    /// A cloud provider's instance metadata service (169.254.169.254, 169.254.170.2,
    /// 100.100.100.200, 192.0.0.192, 168.63.129.16, fd00:ec2::254, fd20:ce::254): never allowed.
    case cloudMetadata
    /// Multicast, broadcast, documentation and other reserved ranges: never allowed.
    case reserved
}

extension WebhookAddress {
    /// The cloud metadata services' addresses, refused whatever the scopes allow.
    static let cloudMetadata: Set<WebhookAddress> = Set(
        [
            "169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "168.63.129.16",
            "fd00:ec2::254", "fd20:ce::254",
        ].compactMap { WebhookAddress($0) })

    /// What this address is to the destination rules. An IPv6 address that carries an IPv4
    /// one (IPv4-mapped, IPv4-compatible, NAT64, 6to4) is what its IPv4 address is, as
    /// traffic to it ends up there.
    public var kind: WebhookAddressKind {
        if Self.cloudMetadata.contains(self) { return .cloudMetadata }
        if let v4 = embeddedIPv4 { return v4.kind }
        return isIPv6 ? kindOfIPv6 : kindOfIPv4
    }

    /// The IPv4 address inside an IPv6 one that carries it, if any: `::ffff:a.b.c.d` (mapped),
    /// `::ffff:0:a.b.c.d` (translated), `::a.b.c.d` (compatible), `64:ff9b::a.b.c.d` (NAT64)
    /// and `2002:aabb:ccdd::/48` (6to4).
    var embeddedIPv4: WebhookAddress? {
        guard isIPv6 else { return nil }
        let b = bytes
        let zeros10 = b[0..<10].allSatisfy { $0 == 0 }
        if zeros10, b[10] == 0xFF, b[11] == 0xFF { return WebhookAddress(bytes: Array(b[12..<16])) }
        if b[0..<8].allSatisfy({ $0 == 0 }), b[8] == 0xFF, b[9] == 0xFF, b[10] == 0, b[11] == 0 {
            return WebhookAddress(bytes: Array(b[12..<16]))
        }
        // ::a.b.c.d, except :: and ::1 themselves.
        if zeros10, b[10] == 0, b[11] == 0, b[12..<15].contains(where: { $0 != 0 }) {
            return WebhookAddress(bytes: Array(b[12..<16]))
        }
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return WebhookAddress(bytes: Array(b[12..<16]))
        }
        if b[0] == 0x20, b[1] == 0x02 { return WebhookAddress(bytes: Array(b[2..<6])) }
        return nil
    }

    private var kindOfIPv4: WebhookAddressKind {
        let (a, b) = (bytes[0], bytes[1])
        switch a {
        case 0, 127: return .loopback
        case 10: return .privateNetwork
        case 100 where (64...127).contains(b): return .privateNetwork
        case 169 where b == 254: return .linkLocal
        case 172 where (16...31).contains(b): return .privateNetwork
        case 192 where b == 168: return .privateNetwork
        case 192 where b == 0 && bytes[2] == 0, 192 where b == 0 && bytes[2] == 2: return .reserved
        case 198 where b == 18 || b == 19: return .privateNetwork
        case 198 where b == 51 && bytes[2] == 100, 203 where b == 0 && bytes[2] == 113: return .reserved
        case 224...255: return .reserved
        default: return .public
        }
    }

    private var kindOfIPv6: WebhookAddressKind {
        let b = bytes
        if b[0..<15].allSatisfy({ $0 == 0 }) { return .loopback }  // :: and ::1
        switch b[0] {
        case 0xFE where b[1] & 0xC0 == 0x80: return .linkLocal
        case 0xFE where b[1] & 0xC0 == 0xC0: return .privateNetwork
        case 0xFC, 0xFD: return .privateNetwork
        case 0xFF: return .reserved
        // 2001::/32 (Teredo, whose inner address is obscured) and 2001:db8::/32 (documentation).
        case 0x20 where b[1] == 0x01 && b[2] == 0 && b[3] == 0,
            0x20 where b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8:
            return .reserved
        case 0x20...0x3F: return .public
        default: return .reserved
        }
    }
}
