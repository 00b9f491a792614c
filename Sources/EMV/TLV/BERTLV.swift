/// Decoding of BER-TLV data as EMV uses it (EMV Book 3, Annex B).
///
/// Rules enforced: tags of one to four bytes; definite lengths, short form (`00`–`7F`) or long
/// form with one to four length bytes (`81`–`84`); constructed objects (bit 6 of the tag's
/// first byte) whose values are decoded as nested objects; `00` bytes before, between and
/// after objects are skipped as padding. Indefinite lengths (`80`), length fields of more
/// than four bytes, values that run past their container and nesting deeper than
/// ``maximumDepth`` are rejected with a ``TLVError`` that names the byte offset.
///
/// Two ways in, both without copying values:
/// - ``walk(_:_:)`` visits every object depth-first and allocates nothing.
/// - ``TLVTree`` indexes the objects once for lookup by tag and by path.
public enum BERTLV {
    /// The number of nesting levels accepted: objects may sit at depths 0 to 31. EMV data goes
    /// 3 or 4 levels deep; the limit keeps hostile input from exhausting the stack.
    public static let maximumDepth = 32

    /// Visits every data object in `bytes` in depth-first order (a constructed object, then
    /// its children) and allocates nothing.
    ///
    /// ```swift
    /// try BERTLV.walk(bytes) { field in
    ///     if field.tag == 0x9F26 { print(Hex.encode(bytes[field.valueRange])) }
    /// }
    /// ```
    /// - Throws: ``TLVError`` at the first malformed object; the visitor has then seen the
    ///   objects before it.
    @inlinable
    public static func walk(_ bytes: [UInt8], _ visit: (TLVField) -> Void) throws(TLVError) {
        try bytes.withUnsafeBufferPointer { buffer throws(TLVError) in
            try walk(buffer, visit)
        }
    }

    /// Visits every data object in a buffer; offsets in the fields are buffer indices.
    /// See ``walk(_:_:)-(Array<UInt8>,_)``.
    @inlinable
    public static func walk(_ buffer: UnsafeBufferPointer<UInt8>, _ visit: (TLVField) -> Void)
        throws(TLVError)
    {
        // Children lie inside their parent's value, so a depth-first walk reads straight
        // through the bytes; a small stack on the call frame remembers where each open
        // constructed object ends.
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: maximumDepth) { ends throws(TLVError) in
            var depth = 0
            var end = buffer.count
            var position = 0
            while true {
                guard let field = try readField(buffer, at: &position, end: end, depth: depth) else {
                    // This level is done: resume the enclosing one after its value.
                    guard depth > 0 else { return }
                    depth -= 1
                    position = end
                    end = ends[depth]
                    continue
                }
                visit(field)
                if field.tag.isConstructed {
                    guard depth + 1 < maximumDepth else {
                        // Only an object inside it would be too deep.
                        var probe = field.valueRange.lowerBound
                        if let inner = try readField(
                            buffer, at: &probe, end: field.valueRange.upperBound, depth: depth + 1)
                        {
                            throw TLVError(.nestingTooDeep, at: inner.offset)
                        }
                        continue
                    }
                    ends[depth] = end
                    depth += 1
                    end = field.valueRange.upperBound
                    position = field.valueRange.lowerBound
                }
            }
        }
    }

    /// Reads the next object's header at `position` (skipping `00` padding), leaving
    /// `position` after its value; returns `nil` at `end`.
    @inlinable @inline(__always)
    static func readField(
        _ buffer: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int, depth: Int
    ) throws(TLVError) -> TLVField? {
        var index = position
        // Padding: 00 bytes may sit before, between and after objects.
        while index < end && buffer[index] == 0 { index += 1 }
        guard index < end else {
            position = end
            return nil
        }
        let tagStart = index
        let first = buffer[index]
        var tag = UInt32(first)
        index += 1
        if first & 0x1F == 0x1F {
            // Subsequent tag bytes: bit 8 set on all but the last.
            while true {
                guard index < end else { throw TLVError(.truncatedTag, at: tagStart) }
                let byte = buffer[index]
                index += 1
                tag = tag << 8 | UInt32(byte)
                if byte & 0x80 == 0 { break }
                guard index - tagStart < 4 else { throw TLVError(.tagTooLong, at: tagStart) }
            }
        }
        guard index < end else { throw TLVError(.truncatedLength, at: index) }
        let lengthStart = index
        let lead = buffer[index]
        index += 1
        var length: Int
        if lead < 0x80 {
            length = Int(lead)
        } else {
            let count = Int(lead & 0x7F)
            if count == 0 { throw TLVError(.indefiniteLength, at: lengthStart) }
            guard count <= 4 else { throw TLVError(.lengthFieldTooLong, at: lengthStart) }
            guard end - index >= count else { throw TLVError(.truncatedLength, at: lengthStart) }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(buffer[index])
                index += 1
            }
        }
        let available = end - index
        guard length <= available else {
            throw TLVError(.truncatedValue(declared: length, available: available), at: lengthStart)
        }
        position = index + length
        return TLVField(tag: EMVTag(rawValue: tag), offset: tagStart, valueRange: index..<position, depth: depth)
    }
}
