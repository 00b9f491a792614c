/// The EMV tag dictionary: names, sources, formats and lengths of the data elements of
/// EMV Books 1–4, the contactless Entry Point and kernels, and the common payment-system
/// proprietary tags.
///
/// Lookup is a hash-table probe; the table is built once, on first use, and shared.
///
/// ```swift
/// TagDictionary.info(for: 0x95)?.name   // "Terminal Verification Results"
/// TagDictionary.all.count               // every known tag, sorted by tag number
/// ```
public enum TagDictionary {
    /// Every entry, sorted by tag number; each tag appears once.
    public static let all: [TagInfo] = {
        let entries = emvEntries + contactlessEntries + mastercardEntries + visaEntries
        return entries.sorted { $0.tag < $1.tag }
    }()

    /// The entry for `tag`, or `nil` when the dictionary does not know it.
    public static func info(for tag: EMVTag) -> TagInfo? { index[tag] }

    /// The entry's name, or `nil` when the dictionary does not know the tag.
    public static func name(of tag: EMVTag) -> String? { index[tag]?.name }

    private static let index: [EMVTag: TagInfo] = Dictionary(
        all.map { ($0.tag, $0) }, uniquingKeysWith: { first, _ in first })
}

/// Shorthand used by the dictionary tables.
func entry(
    _ tag: EMVTag, _ name: String, _ source: TagSource, _ format: DataFormat, _ length: LengthRule,
    in template: EMVTag? = nil, _ specification: TagSpecification = .emv, aka otherNames: [String] = []
) -> TagInfo {
    TagInfo(
        tag: tag, name: name, source: source, format: format, length: length, template: template,
        specification: specification, otherNames: otherNames)
}
