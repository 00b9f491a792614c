/// The identifier a gateway or reader assigns to a transaction, used to refund, void,
/// capture or look it up later.
///
/// MPOSKit does not interpret the identifier; it only checks that it is 1 to 128
/// printable ASCII characters (`!` to `~`, no spaces or control characters), so it can
/// be logged, stored and put in a URL path after percent-encoding without surprises.
///
/// Encodes as its string; decoding validates it.
public struct TransactionID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The longest identifier accepted.
    public static let maximumLength = 128

    /// The identifier's text.
    public let rawValue: String

    /// Wraps `rawValue` if it is a valid identifier; `nil` otherwise.
    public init?(rawValue: String) {
        let bytes = rawValue.utf8
        guard (1...Self.maximumLength).contains(bytes.count),
            bytes.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// Wraps `text` if it is a valid identifier.
    ///
    /// - Throws: ``MPOSError/invalidIdentifier`` when the text is empty, longer than 128
    ///   characters, or holds anything but printable ASCII.
    public init(validating text: some StringProtocol) throws(MPOSError) {
        guard let id = TransactionID(rawValue: String(text)) else {
            throw MPOSError.invalidIdentifier.withMessage(
                "A transaction ID must be 1 to \(Self.maximumLength) printable ASCII characters "
                    + "(\(text.utf8.count) bytes given).")
        }
        self = id
    }

    /// The identifier's text.
    public var description: String { rawValue }
}
