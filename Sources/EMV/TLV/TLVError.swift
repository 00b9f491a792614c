/// Why bytes are not well-formed BER-TLV, and where the problem starts.
///
/// ``offset`` is the zero-based position in the decoded input of the byte that could not be
/// read as intended (the tag, length or value that breaks the rule), so a developer can find
/// it in a hex dump.
public struct TLVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let kind: Kind
    /// Byte offset in the input where the offending tag, length or value begins.
    public let offset: Int

    /// Creates an error of a kind at an offset.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The classes of malformed input.
    public enum Kind: Hashable, Sendable {
        /// The input ends inside a tag whose first byte announced more bytes.
        case truncatedTag
        /// A tag runs past four bytes, the most EMV defines.
        case tagTooLong
        /// The input ends before the length field is complete.
        case truncatedLength
        /// Length byte `80`: indefinite lengths are not allowed in EMV.
        case indefiniteLength
        /// A long-form length announces more than four length bytes, or the reserved `FF`.
        case lengthFieldTooLong
        /// The value runs past the end of the input or of the enclosing constructed object.
        /// `declared` is the length the field announced, `available` the bytes left.
        case truncatedValue(declared: Int, available: Int)
        /// Constructed objects are nested deeper than ``BERTLV/maximumDepth``.
        case nestingTooDeep
        /// The tag cannot be encoded (zero, or continuation bits that disagree with its size).
        case invalidTag(EMVTag)
    }

    /// One line naming the problem and its byte offset.
    public var description: String {
        switch kind {
        case .truncatedTag: return "truncated tag at byte offset \(offset)"
        case .tagTooLong: return "tag longer than 4 bytes at byte offset \(offset)"
        case .truncatedLength: return "truncated length at byte offset \(offset)"
        case .indefiniteLength: return "indefinite length (0x80) at byte offset \(offset) is not allowed in EMV"
        case .lengthFieldTooLong: return "length field longer than 4 bytes at byte offset \(offset)"
        case .truncatedValue(let declared, let available):
            return "truncated value at byte offset \(offset): length says \(declared) bytes, \(available) remain"
        case .nestingTooDeep:
            return "constructed objects nested deeper than \(BERTLV.maximumDepth) levels at byte offset \(offset)"
        case .invalidTag(let tag):
            return "invalid tag \(tag.hex) at byte offset \(offset)"
        }
    }
}
