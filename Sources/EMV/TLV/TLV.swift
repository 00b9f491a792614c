/// A data object to build and encode: a tag with either raw value bytes or nested objects.
///
/// ```swift
/// let template = TLV(0x77, children: [
///     TLV(0x9F27, value: [0x80]),
///     TLV(0x9F36, value: [0x00, 0x42]),
/// ])
/// let bytes = try template.encoded()   // 77 07 9F27 01 80 9F36 02 0042
/// ```
public struct TLV: Hashable, Sendable {
    /// The object's tag.
    public var tag: EMVTag
    /// The object's content.
    public var content: Content

    /// What a data object holds.
    public enum Content: Hashable, Sendable {
        /// Raw value bytes.
        case primitive([UInt8])
        /// Nested data objects, encoded one after another as the value.
        case constructed([TLV])
    }

    /// A primitive object.
    public init(_ tag: EMVTag, value: [UInt8]) {
        self.tag = tag
        self.content = .primitive(value)
    }

    /// A constructed object holding `children`.
    public init(_ tag: EMVTag, children: [TLV]) {
        self.tag = tag
        self.content = .constructed(children)
    }

    /// The raw value of a primitive object; `nil` for a constructed one.
    public var value: [UInt8]? {
        if case .primitive(let bytes) = content { return bytes }
        return nil
    }

    /// The nested objects of a constructed object; empty for a primitive one.
    public var children: [TLV] {
        if case .constructed(let children) = content { return children }
        return []
    }

    /// The object's encoding: tag, definite length in the shortest form, value.
    /// - Throws: ``TLVError`` with kind `.invalidTag` when a tag is zero or its bytes are not
    ///   a well-formed BER tag; the offset is where that tag would have been written.
    public func encoded() throws(TLVError) -> [UInt8] {
        try TLV.encode([self])
    }

    /// Encodes objects one after another.
    /// - Throws: ``TLVError`` with kind `.invalidTag`, as ``encoded()``.
    public static func encode(_ objects: [TLV]) throws(TLVError) -> [UInt8] {
        var size = 0
        for object in objects { size += object.encodedSize }
        var failure: TLVError? = nil
        let out = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var cursor = 0
            do throws(TLVError) {
                for object in objects { try object.write(into: buffer, at: &cursor) }
            } catch {
                failure = error
                buffer.baseAddress!.update(repeating: 0, count: buffer.count)
            }
            initialized = buffer.count
        }
        if let failure { throw failure }
        return out
    }

    /// Bytes the encoding takes.
    public var encodedSize: Int {
        let valueSize = self.valueSize
        return tag.byteCount + TLV.lengthFieldSize(valueSize) + valueSize
    }

    private var valueSize: Int {
        switch content {
        case .primitive(let bytes): return bytes.count
        case .constructed(let children):
            var total = 0
            for child in children { total += child.encodedSize }
            return total
        }
    }

    /// The number of bytes the length field takes for a value of `length` bytes.
    @inlinable
    public static func lengthFieldSize(_ length: Int) -> Int {
        length < 0x80 ? 1 : length <= 0xFF ? 2 : length <= 0xFFFF ? 3 : length <= 0xFF_FFFF ? 4 : 5
    }

    /// Appends a definite length in the shortest form.
    @inlinable
    public static func appendLength(_ length: Int, to out: inout [UInt8]) {
        let size = lengthFieldSize(length)
        if size == 1 {
            out.append(UInt8(length))
            return
        }
        out.append(0x80 | UInt8(size - 1))
        for shift in stride(from: (size - 2) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: length >> shift))
        }
    }

    @inline(__always)
    private static func writeLength(_ length: Int, into out: UnsafeMutableBufferPointer<UInt8>, at cursor: inout Int) {
        let size = lengthFieldSize(length)
        if size == 1 {
            out[cursor] = UInt8(length)
            cursor += 1
            return
        }
        out[cursor] = 0x80 | UInt8(size - 1)
        cursor += 1
        for shift in stride(from: (size - 2) * 8, through: 0, by: -8) {
            out[cursor] = UInt8(truncatingIfNeeded: length >> shift)
            cursor += 1
        }
    }

    /// Writes the encoding at `cursor`; the caller sized `out` with ``encodedSize``.
    private func write(into out: UnsafeMutableBufferPointer<UInt8>, at cursor: inout Int) throws(TLVError) {
        guard tag.isWellFormed else { throw TLVError(.invalidTag(tag), at: cursor) }
        let raw = tag.rawValue
        var shift = 8 * (tag.byteCount - 1)
        while shift >= 0 {
            out[cursor] = UInt8(truncatingIfNeeded: raw >> UInt32(shift))
            cursor += 1
            shift -= 8
        }
        switch content {
        case .primitive(let bytes):
            TLV.writeLength(bytes.count, into: out, at: &cursor)
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress, source.count > 0 {
                    (out.baseAddress! + cursor).update(from: base, count: source.count)
                }
            }
            cursor += bytes.count
        case .constructed(let children):
            TLV.writeLength(valueSize, into: out, at: &cursor)
            for child in children { try child.write(into: out, at: &cursor) }
        }
    }
}

extension TLV {
    /// Rebuilds the objects of a decoded tree as values: a constructed tag becomes a
    /// ``Content/constructed(_:)`` object, a primitive one copies its value.
    public init(_ element: TLVTree.Element) {
        self.tag = element.tag
        if element.isConstructed {
            self.content = .constructed(element.children.map(TLV.init))
        } else {
            self.content = .primitive(Array(element.value))
        }
    }
}

extension TLVTree {
    /// The decoded objects as buildable values (copies the values).
    public var objects: [TLV] { roots.map(TLV.init) }
}

extension EMVTag {
    /// Whether the tag can be encoded: non-zero, and its bytes follow the BER rules (low five
    /// bits `11111` in the first byte exactly when more bytes follow, bit 8 set on every
    /// subsequent byte but the last).
    @inlinable
    public var isWellFormed: Bool {
        let count = byteCount
        let raw = rawValue
        guard raw != 0 else { return false }
        if count == 1 { return raw & 0x1F != 0x1F }
        guard firstByte & 0x1F == 0x1F else { return false }
        // Subsequent bytes: bit 8 set on all but the last.
        for index in 0..<(count - 1) {
            let byte = UInt8(truncatingIfNeeded: raw >> (8 * UInt32(index)))
            if (byte & 0x80 == 0) != (index == 0) { return false }
        }
        return true
    }
}
