/// Text the gateway reads from headers and card data, handled as ASCII bytes: Foundation's
/// `trimmingCharacters(in:)` and `lowercased()` go through Unicode machinery for what are a
/// few bytes of ASCII on every authorization (docs/performance.md).
enum ASCIIText {
    /// `bytes` without the spaces and horizontal tabs at either end.
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return bytes[start..<end]
    }

    /// The text of `bytes` without blanks at either end, or nil when a byte is not ASCII.
    static func trimmedString(_ bytes: some BidirectionalCollection<UInt8>) -> String? {
        let text = trimmed(bytes)
        guard text.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The credentials after an `Authorization` value's scheme (`"Bearer "`, compared without
    /// regard to ASCII case), without blanks at either end; nil when the value has another
    /// scheme or nothing after it.
    static func credentials(_ value: String, scheme: String) -> String? {
        let bytes = Array(value.utf8)
        let prefix = Array(scheme.utf8)
        guard bytes.count > prefix.count else { return nil }
        for (byte, expected) in zip(bytes, prefix) where lowercase(byte) != lowercase(expected) { return nil }
        return String(decoding: trimmed(bytes[prefix.count...]), as: UTF8.self)
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
