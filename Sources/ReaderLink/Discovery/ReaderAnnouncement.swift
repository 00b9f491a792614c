/// What a reader says about itself when it answers a discovery probe: enough for a merchant
/// to pick it from a list and for the SDK to know it can talk to it.
public struct ReaderAnnouncement: Sendable, Hashable {
    /// The name shown to the merchant ("Counter 2"), 1 to 64 bytes of UTF-8.
    public var name: String
    /// The reader's serial number, 1 to 64 bytes of UTF-8; discovery tells readers apart by it.
    public var serialNumber: String
    /// The reader's model, 1 to 64 bytes of UTF-8.
    public var model: String
    /// The highest ReaderLink protocol version the reader speaks.
    public var protocolVersion: UInt8

    /// Creates an announcement.
    public init(
        name: String, serialNumber: String, model: String, protocolVersion: UInt8 = ReaderLinkProtocol.version
    ) {
        self.name = name
        self.serialNumber = serialNumber
        self.model = model
        self.protocolVersion = protocolVersion
    }
}
