/// CRC-32 as used by Ethernet, zlib and PNG (polynomial 0x04C11DB7, reflected, initial value
/// and final XOR 0xFFFFFFFF). Detects line noise on frames; it is no defence against a
/// deliberate change, which the session MAC catches.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`; `"123456789"` gives `0xCBF43926`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
