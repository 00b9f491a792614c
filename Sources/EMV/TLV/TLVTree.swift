/// Decoded BER-TLV data, indexed for lookup by tag and by path.
///
/// Decoding records where each object lies and keeps a reference to the input; values are
/// slices of that input, never copies. One array of nodes is the only allocation.
///
/// ```swift
/// let tree = try TLVTree(decoding: bytes)
/// tree.first(0x9F26)?.value            // Application Cryptogram, as a slice of `bytes`
/// tree.element(at: [0x77, 0x9F27])     // CID inside the response template
/// for element in tree.roots { print(element.tag, element.length) }
/// ```
public struct TLVTree: Sendable {
    /// The decoded input; values are slices of it.
    public let bytes: ArraySlice<UInt8>
    @usableFromInline let nodes: [Node]

    @usableFromInline
    struct Node: Sendable {
        @usableFromInline let tag: UInt32
        @usableFromInline let offset: Int32
        @usableFromInline let valueStart: Int32
        @usableFromInline let valueEnd: Int32
        @usableFromInline let parent: Int32
        /// Index of the next node that is not a descendant (the next sibling, or a later node).
        @usableFromInline var skip: Int32
        @usableFromInline let depth: Int16
    }

    /// Decodes every data object in `bytes`, descending into constructed ones.
    /// - Throws: ``TLVError`` naming the first malformed object's byte offset (relative to
    ///   the start of `bytes`).
    public init(decoding bytes: [UInt8]) throws(TLVError) {
        try self.init(decoding: bytes[...])
    }

    /// Decodes a slice; error offsets are relative to the slice's start, while
    /// ``Element/valueRange`` uses the slice's own indices.
    public init(decoding bytes: ArraySlice<UInt8>) throws(TLVError) {
        guard bytes.count <= Int(Int32.max) else {
            throw TLVError(.truncatedValue(declared: bytes.count, available: Int(Int32.max)), at: 0)
        }
        self.bytes = bytes
        let base = bytes.startIndex
        var nodes: [Node] = []
        // A TLV takes at least 2 bytes; EMV blobs average ~9 bytes an object.
        nodes.reserveCapacity(bytes.count / 6 + 4)
        try bytes.withUnsafeBufferPointer { buffer throws(TLVError) in
            try TLVTree.index(buffer, from: 0, to: buffer.count, into: &nodes)
        }
        if base != 0 {
            nodes = nodes.map {
                Node(
                    tag: $0.tag, offset: $0.offset + Int32(base), valueStart: $0.valueStart + Int32(base),
                    valueEnd: $0.valueEnd + Int32(base), parent: $0.parent, skip: $0.skip, depth: $0.depth)
            }
        }
        self.nodes = nodes
    }

    private static func index(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into nodes: inout [Node]
    ) throws(TLVError) {
        // Depth-first, reading straight through the bytes (children lie inside their
        // parent's value); the stack on the call frame holds each open object's node index and
        // where its enclosing level ends.
        try withUnsafeTemporaryAllocation(of: (node: Int32, end: Int).self, capacity: BERTLV.maximumDepth) {
            open throws(TLVError) in
            var depth = 0
            var end = end
            var parent: Int32 = -1
            var position = start
            while true {
                guard let field = try BERTLV.readField(buffer, at: &position, end: end, depth: depth) else {
                    guard depth > 0 else { return }
                    depth -= 1
                    let closing = open[depth]
                    nodes[Int(closing.node)].skip = Int32(nodes.count)
                    position = end
                    end = closing.end
                    parent = nodes[Int(closing.node)].parent
                    continue
                }
                let me = Int32(nodes.count)
                nodes.append(
                    Node(
                        tag: field.tag.rawValue, offset: Int32(field.offset),
                        valueStart: Int32(field.valueRange.lowerBound), valueEnd: Int32(field.valueRange.upperBound),
                        parent: parent, skip: me + 1, depth: Int16(depth)))
                if field.tag.isConstructed {
                    if depth + 1 == BERTLV.maximumDepth {
                        // Descending is allowed only if nothing lies inside.
                        var probe = field.valueRange.lowerBound
                        if let inner = try BERTLV.readField(
                            buffer, at: &probe, end: field.valueRange.upperBound, depth: depth + 1)
                        {
                            throw TLVError(.nestingTooDeep, at: inner.offset)
                        }
                        continue
                    }
                    open[depth] = (me, end)
                    depth += 1
                    parent = me
                    end = field.valueRange.upperBound
                    position = field.valueRange.lowerBound
                }
            }
        }
    }

    /// The number of data objects at every level.
    @inlinable public var count: Int { nodes.count }

    /// Whether the input held no data objects (empty, or padding only).
    @inlinable public var isEmpty: Bool { nodes.isEmpty }

    /// Every object in depth-first order.
    public var all: [Element] { nodes.indices.map { Element(tree: self, index: $0) } }

    /// The top-level objects, in input order.
    public var roots: Children { Children(tree: self, first: nodes.isEmpty ? -1 : 0, end: nodes.count) }

    /// The first object with `tag` at any depth, in depth-first order.
    @inlinable
    public func first(_ tag: EMVTag) -> Element? {
        let raw = tag.rawValue
        for index in nodes.indices where nodes[index].tag == raw {
            return Element(tree: self, index: index)
        }
        return nil
    }

    /// The value of the first object with `tag`, at any depth.
    @inlinable
    public subscript(tag: EMVTag) -> ArraySlice<UInt8>? { first(tag)?.value }

    /// Every object with `tag`, at any depth.
    public func all(_ tag: EMVTag) -> [Element] {
        nodes.indices.filter { nodes[$0].tag == tag.rawValue }.map { Element(tree: self, index: $0) }
    }

    /// The object reached by following tags from the top level: `[0x70, 0x5A]` is the PAN
    /// directly inside a READ RECORD template. Each step takes the first matching child.
    public func element(at path: [EMVTag]) -> Element? {
        guard let head = path.first else { return nil }
        var current = roots.first { $0.tag == head }
        for tag in path.dropFirst() {
            current = current?.children.first { $0.tag == tag }
        }
        return current
    }

    /// One data object in a ``TLVTree``.
    public struct Element: Sendable {
        @usableFromInline let tree: TLVTree
        @usableFromInline let index: Int

        @inlinable init(tree: TLVTree, index: Int) {
            self.tree = tree
            self.index = index
        }

        @inlinable var node: Node { tree.nodes[index] }

        /// The object's tag.
        @inlinable public var tag: EMVTag { EMVTag(rawValue: node.tag) }
        /// The value's length in bytes.
        @inlinable public var length: Int { Int(node.valueEnd - node.valueStart) }
        /// Where the value lies in ``TLVTree/bytes``.
        @inlinable public var valueRange: Range<Int> { Int(node.valueStart)..<Int(node.valueEnd) }
        /// Where the whole encoding (tag, length, value) lies in ``TLVTree/bytes``.
        @inlinable public var encodedRange: Range<Int> { Int(node.offset)..<Int(node.valueEnd) }
        /// The value bytes, a slice of the decoded input (no copy).
        @inlinable public var value: ArraySlice<UInt8> { tree.bytes[valueRange] }
        /// Nesting level, 0 at the top.
        @inlinable public var depth: Int { Int(node.depth) }
        /// Whether the value was decoded as nested objects.
        @inlinable public var isConstructed: Bool { tag.isConstructed }
        /// The enclosing constructed object, or `nil` at the top level.
        public var parent: Element? {
            node.parent < 0 ? nil : Element(tree: tree, index: Int(node.parent))
        }
        /// The objects directly inside this one (empty for primitives).
        public var children: Children {
            let first = index + 1
            let end = Int(node.skip)
            return Children(tree: tree, first: first < end ? first : -1, end: end)
        }
        /// The path of tags from the top level down to this object.
        public var path: [EMVTag] {
            var tags: [EMVTag] = []
            var cursor: Element? = self
            while let element = cursor {
                tags.append(element.tag)
                cursor = element.parent
            }
            return tags.reversed()
        }
    }

    /// The direct children of an object, or the top-level objects, in input order.
    public struct Children: Sequence, Sendable {
        let tree: TLVTree
        let first: Int
        let end: Int

        /// Iterates siblings by jumping over each one's descendants.
        public struct Iterator: IteratorProtocol {
            let tree: TLVTree
            var cursor: Int
            let end: Int

            /// The next sibling, if any.
            public mutating func next() -> Element? {
                guard cursor >= 0, cursor < end else { return nil }
                let current = cursor
                cursor = Int(tree.nodes[current].skip)
                return Element(tree: tree, index: current)
            }
        }

        /// Starts at the first sibling.
        public func makeIterator() -> Iterator { Iterator(tree: tree, cursor: first, end: end) }
    }
}
