/// ReaderLink: the open wire protocol between MPOSKit and a card reader.
/// See docs/reader-protocol.md.
public enum ReaderLinkProtocol {
    /// The protocol version this implementation speaks.
    public static let version: UInt8 = 1
    /// How long a reader's link may carry no frame from its SDK before the reader may treat
    /// the SDK as gone (docs/reader-protocol.md §6): three keep-alive intervals of 15 s.
    public static let idleLinkLimit: Duration = .seconds(45)
}
