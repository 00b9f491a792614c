/// Why bytes could not be read as a data object list.
public enum DOLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A tag announces more bytes than remain; `offset` is where the tag starts.
    case truncatedTag(offset: Int)
    /// A tag runs past four bytes; `offset` is where the tag starts.
    case tagTooLong(offset: Int)
    /// A tag ends the list without its one-byte length; `offset` is where the length byte
    /// should be.
    case missingLength(tag: EMVTag, offset: Int)

    /// One line for a person.
    public var description: String {
        switch self {
        case .truncatedTag(let offset): "malformed DOL: tag at byte offset \(offset) is truncated"
        case .tagTooLong(let offset): "malformed DOL: tag at byte offset \(offset) is longer than 4 bytes"
        case .missingLength(let tag, let offset):
            "malformed DOL: tag \(tag.hex) has no length byte at byte offset \(offset)"
        }
    }
}
