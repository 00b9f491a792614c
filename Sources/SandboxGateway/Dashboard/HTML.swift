import MPOSCore

/// A fragment of HTML whose text can only arrive escaped.
///
/// The literal parts of a string literal are markup the programmer wrote; everything
/// interpolated into it as a `String` (or anything but another `HTML`) is escaped by the type,
/// so a page cannot forget to escape a merchant's or cardholder's text:
///
/// ```swift
/// let name = "<script>"
/// let cell: HTML = "<td>\(name)</td>"   // <td>&lt;script&gt;</td>
/// ```
public struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup, already escaped.
    public private(set) var markup: String

    /// Markup written in the source.
    public init(stringLiteral value: String) { markup = value }

    /// Markup built by interpolation: literals as written, values escaped.
    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    /// `text` escaped for use in an element's content or a quoted attribute value.
    public init(text: String) { markup = Self.escape(text) }

    /// The markup.
    public var description: String { markup }

    /// Fragments one after the other.
    public static func joined(_ parts: some Sequence<HTML>) -> HTML {
        var out = HTML(stringLiteral: "")
        for part in parts { out.markup += part.markup }
        return out
    }

    /// Escapes the five characters that can end text or a quoted attribute.
    public static func escape(_ text: String) -> String { MarkupEscaping.escape(text) }

    /// Builds ``HTML`` from a string literal with interpolations.
    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        /// Reserves room.
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        /// A literal part: markup as written.
        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// A fragment already built: kept as it is.
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// Fragments one after the other.
        public mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { markup += part.markup }
        }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }

        /// Any other value: its description, escaped.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            markup += HTML.escape(value.description)
        }

        /// An optional: its text escaped, or nothing.
        public mutating func appendInterpolation(_ text: String?) {
            if let text { markup += HTML.escape(text) }
        }
    }
}
