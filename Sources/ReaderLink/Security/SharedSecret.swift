/// The 32-byte secret a reader and the SDK share, from which pairing proofs and session keys
/// are derived. Its description never shows the bytes.
public struct SharedSecret: Sendable, Hashable, CustomStringConvertible {
    /// The secret's length in bytes.
    public static let length = 32

    let bytes: [UInt8]

    /// Wraps 32 bytes; throws `.invalidSharedSecret` for any other length.
    public init(bytes: [UInt8]) throws(ReaderLinkError) {
        guard bytes.count == Self.length else {
            throw .invalidSharedSecret(detail: "a shared secret is \(Self.length) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Parses 64 hexadecimal characters (either case); throws `.invalidSharedSecret` otherwise.
    public init(hex: String) throws(ReaderLinkError) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == Self.length * 2 else {
            throw .invalidSharedSecret(
                detail: "a shared secret is 64 hexadecimal characters, not \(utf8.count)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.length)
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else {
                throw .invalidSharedSecret(detail: "a shared secret holds hexadecimal digits only")
            }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// Redacted.
    public var description: String { "SharedSecret(<redacted>)" }
}
