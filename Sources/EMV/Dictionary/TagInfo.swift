/// What the dictionary knows about one EMV tag: its name, who provides it, how it is
/// encoded and how long it may be.
///
/// ```swift
/// let info = TagDictionary.info(for: 0x9F26)!
/// info.name     // "Application Cryptogram"
/// info.format   // .b
/// info.length   // .fixed(8) — bytes
/// ```
public struct TagInfo: Sendable, Hashable {
    /// The tag number.
    public let tag: EMVTag
    /// The data element's name as the defining specification writes it.
    public let name: String
    /// Who provides the value.
    public let source: TagSource
    /// How the value is encoded.
    public let format: DataFormat
    /// The allowed value length, in bytes.
    public let length: LengthRule
    /// The template the element usually appears in, when there is one (`77` for the
    /// Application Cryptogram, `70` for record data, `A5` for FCI data).
    public let template: EMVTag?
    /// The specification that gives the ``name``.
    public let specification: TagSpecification
    /// Meanings other payment systems give the same tag number, each followed by the
    /// system in brackets, e.g. `"Form Factor Indicator (Visa)"`.
    public let otherNames: [String]

    /// Creates an entry.
    public init(
        tag: EMVTag, name: String, source: TagSource, format: DataFormat, length: LengthRule,
        template: EMVTag? = nil, specification: TagSpecification = .emv, otherNames: [String] = []
    ) {
        self.tag = tag
        self.name = name
        self.source = source
        self.format = format
        self.length = length
        self.template = template
        self.specification = specification
        self.otherNames = otherNames
    }
}
