/// One data object found in a buffer: its tag and where its parts lie.
///
/// A field holds positions, not bytes, so producing one never allocates. Offsets are
/// indices of the buffer that was decoded.
public struct TLVField: Hashable, Sendable {
    /// The object's tag.
    public let tag: EMVTag
    /// Index of the first tag byte.
    public let offset: Int
    /// Indices of the value bytes (for a constructed object, its encoded children).
    public let valueRange: Range<Int>
    /// Nesting level: 0 for top-level objects, 1 for their children, and so on.
    public let depth: Int

    /// Creates a field description.
    @inlinable
    public init(tag: EMVTag, offset: Int, valueRange: Range<Int>, depth: Int) {
        self.tag = tag
        self.offset = offset
        self.valueRange = valueRange
        self.depth = depth
    }

    /// The value's length in bytes, as the length field declared it.
    @inlinable public var length: Int { valueRange.count }

    /// Whether the value is itself a sequence of data objects.
    @inlinable public var isConstructed: Bool { tag.isConstructed }

    /// Indices of the whole encoding: tag, length and value.
    @inlinable public var encodedRange: Range<Int> { offset..<valueRange.upperBound }
}
