/// Big-endian field writer for the message codec.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { bytes.append(UInt8(value >> 8)); bytes.append(UInt8(value & 0xFF)) }
    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8((value >> UInt32(shift)) & 0xFF))
        }
    }
    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8((value >> UInt64(shift)) & 0xFF))
        }
    }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }
    /// UInt32 length, then the bytes.
    mutating func data(_ value: [UInt8]) {
        u32(UInt32(truncatingIfNeeded: value.count))
        bytes.append(contentsOf: value)
    }
    /// UInt16 length, then UTF-8. Longer strings are cut at a character boundary below 65 535 bytes.
    mutating func string(_ value: String) {
        var utf8 = Array(value.utf8)
        if utf8.count > 0xFFFF {
            var cut = 0xFFFF
            while cut > 0, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
            utf8 = Array(utf8[..<cut])
        }
        u16(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }
    mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        if let value {
            u8(1)
            write(&self, value)
        } else {
            u8(0)
        }
    }
    /// UInt16 count, then the elements.
    mutating func array<T>(_ values: [T], _ write: (inout ByteWriter, T) -> Void) {
        u16(UInt16(truncatingIfNeeded: min(values.count, 0xFFFF)))
        for value in values.prefix(0xFFFF) { write(&self, value) }
    }
}

/// Big-endian field reader for the message codec. Every read checks the bounds and throws
/// `.malformed`; nothing traps on bad input.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - index }

    mutating func take(_ count: Int) throws(ReaderLinkError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw .malformed(detail: "message truncated") }
        defer { index += count }
        return bytes[index..<(index + count)]
    }
    mutating func u8() throws(ReaderLinkError) -> UInt8 { try take(1).first! }
    mutating func u16() throws(ReaderLinkError) -> UInt16 {
        let b = try take(2)
        return UInt16(b[b.startIndex]) << 8 | UInt16(b[b.startIndex + 1])
    }
    mutating func u32() throws(ReaderLinkError) -> UInt32 {
        try take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
    mutating func u64() throws(ReaderLinkError) -> UInt64 {
        try take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
    mutating func i64() throws(ReaderLinkError) -> Int64 { Int64(bitPattern: try u64()) }
    mutating func bool() throws(ReaderLinkError) -> Bool {
        switch try u8() {
        case 0: false
        case 1: true
        case let other: throw .malformed(detail: "boolean byte \(other)")
        }
    }
    mutating func data() throws(ReaderLinkError) -> [UInt8] {
        let count = try u32()
        guard Int(count) <= remaining else { throw .malformed(detail: "field length beyond the message") }
        return Array(try take(Int(count)))
    }
    mutating func string() throws(ReaderLinkError) -> String {
        let utf8 = try take(Int(try u16()))
        let string = String(decoding: utf8, as: UTF8.self)
        guard string.utf8.elementsEqual(utf8) else { throw .malformed(detail: "string is not valid UTF-8") }
        return string
    }
    mutating func optional<T>(_ read: (inout ByteReader) throws(ReaderLinkError) -> T) throws(ReaderLinkError)
        -> T?
    {
        switch try u8() {
        case 0: return nil
        case 1: return try read(&self)
        case let other: throw .malformed(detail: "optional marker \(other)")
        }
    }
    mutating func array<T>(_ read: (inout ByteReader) throws(ReaderLinkError) -> T) throws(ReaderLinkError)
        -> [T]
    {
        let count = Int(try u16())
        guard count <= remaining else { throw .malformed(detail: "element count beyond the message") }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
    func finish() throws(ReaderLinkError) {
        guard remaining == 0 else { throw .malformed(detail: "\(remaining) unexpected trailing bytes") }
    }
}

extension ByteWriter {
    /// A pad signature: width u16 ‖ height u16 ‖ [stroke: [x u16 ‖ y u16]].
    mutating func signature(_ signature: CardholderSignature) {
        u16(UInt16(signature.width))
        u16(UInt16(signature.height))
        array(signature.strokes) { w, stroke in
            w.array(stroke) { w, point in
                w.u16(UInt16(point.x))
                w.u16(UInt16(point.y))
            }
        }
    }
}

extension ByteReader {
    /// A pad signature, as ``ByteWriter/signature(_:)`` writes it (its sides and points checked).
    mutating func signature() throws(ReaderLinkError) -> CardholderSignature {
        let width = Int(try u16())
        let height = Int(try u16())
        let strokes = try array { r throws(ReaderLinkError) in
            try r.array { r throws(ReaderLinkError) in
                CardholderSignature.Point(x: Int(try r.u16()), y: Int(try r.u16()))
            }
        }
        return try CardholderSignature(width: width, height: height, strokes: strokes)
    }
}
