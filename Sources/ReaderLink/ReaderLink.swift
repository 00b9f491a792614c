/// ReaderLink: the open wire protocol between MPOSKit and a card reader.
/// See docs/reader-protocol.md.
public enum ReaderLinkProtocol {
    /// The protocol version this implementation speaks.
    public static let version: UInt8 = 1
}
