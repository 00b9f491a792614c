/// A one-bit meaning inside a bit-coded data element such as the TVR or the AIP.
///
/// Positions follow the EMV books: bytes count from 1, bits from 8 (most significant) down
/// to 1. The raw value packs both as `byte * 10 + bit`, so `34` is byte 3, bit 4.
public protocol BitFlag: RawRepresentable<Int>, CaseIterable, Sendable, Hashable, CustomStringConvertible {}

extension BitFlag {
    /// The byte holding the flag, counted from 1.
    public var byte: Int { rawValue / 10 }

    /// The bit holding the flag, 8 (most significant) to 1.
    public var bit: Int { rawValue % 10 }

    /// Whether the flag is set in `bytes` (false when `bytes` is too short).
    public func isSet(in bytes: [UInt8]) -> Bool {
        guard byte >= 1, byte <= bytes.count else { return false }
        return bytes[byte - 1] & (1 << UInt8(bit - 1)) != 0
    }
}

/// Flags set in `bytes`, in the order the type declares them.
func flagsSet<Flag: BitFlag>(_: Flag.Type, in bytes: [UInt8]) -> [Flag] {
    Flag.allCases.filter { $0.isSet(in: bytes) }
}

/// One statement for each set bit that no flag (and no field in `covered`) defines.
func reservedBitStatements<Flag: BitFlag>(
    _: Flag.Type, in bytes: [UInt8], covered: Set<Int> = []
) -> [String] {
    let defined = Set(Flag.allCases.map(\.rawValue)).union(covered)
    var statements: [String] = []
    for (index, byte) in bytes.enumerated() {
        for bit in stride(from: 8, through: 1, by: -1) where byte & (1 << UInt8(bit - 1)) != 0 {
            let position = (index + 1) * 10 + bit
            if !defined.contains(position) {
                statements.append("Byte \(index + 1) bit \(bit) is set but is reserved for future use")
            }
        }
    }
    return statements
}
