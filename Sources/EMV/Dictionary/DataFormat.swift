/// How a data element's value is encoded, using the format letters of EMV Book 3 section 4.3.
///
/// The format decides how a value is padded or cut when it is placed into a data object
/// list (see ``DataObjectList/fill(using:)``) and which decoder checks apply.
public enum DataFormat: String, Sendable, Hashable, CaseIterable {
    /// Alphabetic (`a`): letters a–z and A–Z, one character per byte.
    case a
    /// Alphanumeric (`an`): letters and digits, one character per byte.
    case an
    /// Alphanumeric special (`ans`): characters of the common character set, one per byte.
    case ans
    /// Binary (`b`): bits and bytes whose meaning the data element defines.
    case b
    /// Compressed numeric (`cn`): BCD digits, left justified, padded on the right with `F` nibbles.
    case cn
    /// Numeric (`n`): BCD digits, right justified, padded on the left with `0` nibbles.
    case n
    /// Variable (`var.`): a template or a structure whose coding depends on content, such as
    /// a constructed data object or a proprietary value.
    case variable

    /// Whether the value is made of BCD digits (`n` or `cn`).
    public var isNumeric: Bool { self == .n || self == .cn }
}
