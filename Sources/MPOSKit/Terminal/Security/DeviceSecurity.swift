/// The security part's state: the device checks run before each card payment, and what the
/// device and the gateway said at the last online login, their reference.
struct DeviceSecurity: Sendable {
    var checks = DeviceChecks.standard
    var checkpoint: DeviceCheckpoint?
}
