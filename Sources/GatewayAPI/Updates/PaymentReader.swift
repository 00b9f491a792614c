/// The card reader a card-present payment is taken on, as the reader reports itself: what the
/// gateway's terminal management needs to judge the payment (the TSM seed: a terminal that has
/// not installed an update by its deadline "will be deactivated, preventing any future
/// transactions").
///
/// The fields are those of ``TerminalInitializeRequest``. The gateway registers a reader it has
/// not seen for the merchant (its grace period starts then) and refuses the payment with
/// ``GatewayErrorCode/terminalDeactivated`` when an image newer than the versions reported here
/// was due, after the grace period, before the payment was taken.
public struct PaymentReader: Codable, Sendable, Hashable {
    /// The reader's model.
    public var model: String
    /// The reader's serial number.
    public var serialNumber: String
    /// The firmware version it runs.
    public var firmwareVersion: String
    /// The configuration version it holds.
    public var configurationVersion: String
    /// Test or production reader (production when omitted).
    public var channel: UpdateChannel?

    /// Describes a reader.
    public init(
        model: String, serialNumber: String, firmwareVersion: String, configurationVersion: String,
        channel: UpdateChannel? = nil
    ) {
        self.model = model
        self.serialNumber = serialNumber
        self.firmwareVersion = firmwareVersion
        self.configurationVersion = configurationVersion
        self.channel = channel
    }

    /// The same description as a reader's initialization, which registers it.
    public var initializeRequest: TerminalInitializeRequest {
        TerminalInitializeRequest(
            model: model, serialNumber: serialNumber, firmwareVersion: firmwareVersion,
            configurationVersion: configurationVersion, channel: channel)
    }
}
