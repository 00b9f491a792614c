import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/transactions/{id}/receipt/send`: send the receipt by e-mail or SMS (the
/// sandbox writes it to the outbox).
public struct SendReceiptRequest: Codable, Sendable, Hashable {
    /// E-mail or SMS.
    public var channel: MessageChannel
    /// The e-mail address or phone number (E.164, such as `"+4915112345678"`).
    public var address: String

    /// Creates the request.
    public init(channel: MessageChannel, address: String) {
        self.channel = channel
        self.address = address
    }
}
