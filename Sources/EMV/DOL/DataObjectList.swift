/// A Data Object List (DOL): the card's request for terminal data, as a sequence of tags
/// each followed by a one-byte length and no value. PDOL (`9F38`), CDOL1 (`8C`), CDOL2
/// (`8D`), DDOL (`9F49`), TDOL (`97`) and the Kernel 2 DOLs share this form (EMV Book 3
/// section 5.4).
///
/// ```swift
/// let cdol1 = try DataObjectList(bytes: Hex.decode("9F02069F03069F1A0295055F2A029A039C019F3704"))
/// let data = cdol1.fill { tlvs[$0] }     // 29 bytes for GENERATE AC
/// ```
public struct DataObjectList: Sendable, Hashable {
    /// One requested data element.
    public struct Entry: Sendable, Hashable {
        /// The tag requested.
        public let tag: EMVTag
        /// The number of bytes the value must occupy.
        public let length: Int

        /// Creates an entry.
        public init(tag: EMVTag, length: Int) {
            self.tag = tag
            self.length = length
        }
    }

    /// The entries in list order.
    public let entries: [Entry]

    /// Creates a list from entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// Parses a DOL's value bytes.
    ///
    /// - Throws: ``DOLError`` with the byte offset of the tag or length that is malformed.
    public init(bytes: some Collection<UInt8>) throws(DOLError) {
        let bytes = Array(bytes)
        var entries: [Entry] = []
        var offset = 0
        while offset < bytes.count {
            let start = offset
            var raw = UInt32(bytes[offset])
            offset += 1
            if bytes[start] & 0x1F == 0x1F {
                // Subsequent tag bytes follow while bit 8 is set.
                while true {
                    guard offset < bytes.count else { throw .truncatedTag(offset: start) }
                    guard offset - start < 4 else { throw .tagTooLong(offset: start) }
                    let byte = bytes[offset]
                    raw = raw << 8 | UInt32(byte)
                    offset += 1
                    if byte & 0x80 == 0 { break }
                }
            }
            let tag = EMVTag(rawValue: raw)
            guard offset < bytes.count else { throw .missingLength(tag: tag, offset: offset) }
            entries.append(Entry(tag: tag, length: Int(bytes[offset])))
            offset += 1
        }
        self.entries = entries
    }

    /// The list encoded again: each tag's bytes and its length byte. Lengths above 255 are
    /// written as 255.
    public var bytes: [UInt8] {
        entries.flatMap { $0.tag.bytes + [UInt8(clamping: $0.length)] }
    }

    /// The number of bytes ``fill(using:)`` produces: the sum of the lengths.
    public var totalLength: Int { entries.reduce(0) { $0 + $1.length } }

    /// The values concatenated in list order, each fitted to its requested length by the
    /// rules of EMV Book 3 section 5.4:
    ///
    /// - a value `values` does not supply, or a constructed tag, is all zero bytes;
    /// - numeric (`n`) values keep their rightmost bytes when too long and get leading
    ///   zero bytes when too short;
    /// - compressed numeric (`cn`) values keep their leftmost bytes and get trailing `FF`
    ///   bytes;
    /// - every other format keeps the leftmost bytes and gets trailing zero bytes.
    ///
    /// The format comes from ``TagDictionary``; a tag it does not know is treated as binary.
    public func fill(using values: (EMVTag) -> [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(totalLength)
        for entry in entries {
            let wanted = entry.length
            guard !entry.tag.isConstructed, let value = values(entry.tag) else {
                out.append(contentsOf: repeatElement(0, count: wanted))
                continue
            }
            let format = TagDictionary.info(for: entry.tag)?.format ?? .b
            switch format {
            case .n:
                if value.count >= wanted {
                    out.append(contentsOf: value.suffix(wanted))
                } else {
                    out.append(contentsOf: repeatElement(0, count: wanted - value.count))
                    out.append(contentsOf: value)
                }
            default:
                let pad: UInt8 = format == .cn ? 0xFF : 0x00
                out.append(contentsOf: value.prefix(wanted))
                if value.count < wanted {
                    out.append(contentsOf: repeatElement(pad, count: wanted - value.count))
                }
            }
        }
        return out
    }

    /// Splits data built from this list back into one value per entry; `nil` when the
    /// data's length is not ``totalLength``.
    public func split(_ data: some Collection<UInt8>) -> [(tag: EMVTag, value: [UInt8])]? {
        let bytes = Array(data)
        guard bytes.count == totalLength else { return nil }
        var offset = 0
        return entries.map { entry in
            defer { offset += entry.length }
            return (entry.tag, Array(bytes[offset..<offset + entry.length]))
        }
    }
}
