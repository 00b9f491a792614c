import Foundation
import MPOSCore

/// The device checks and the reference they judge against: what the device and the gateway
/// said at the last online login. The facade holds it; its rules are here.
struct DeviceSecurity: Sendable {
    /// The checks run before every card payment.
    var checks: DeviceChecks
    /// The reference of the clock and restart checks, from the last online login (or the
    /// cached session an offline-only start runs on).
    private(set) var checkpoint: DeviceCheckpoint?

    init(checks: DeviceChecks) { self.checks = checks }

    /// What the device says of itself now.
    func deviceState() async -> DeviceState {
        let probe = checks.probe
        return await probe.state()
    }

    /// Takes the reference at an online login: the device's `state` then, and the gateway's date.
    mutating func takeReference(_ state: DeviceState, gatewayDate: Date?) {
        checkpoint = DeviceCheckpoint(
            deviceDate: state.date, gatewayDate: gatewayDate, sinceBoot: state.sinceBoot, bootID: state.bootID)
    }

    /// Runs against the reference of the login that sealed a cached session (an offline-only start).
    mutating func adopt(_ checkpoint: DeviceCheckpoint?) { self.checkpoint = checkpoint }

    /// Why a device in `state` may take no card payment, or nil.
    func refusal(_ state: DeviceState) -> MPOSError? { checks.refusal(state, since: checkpoint) }

    /// Why a device in `state` may take no sale offline, or nil.
    func offlineRefusal(_ state: DeviceState) -> MPOSError? { checks.offlineRefusal(state, since: checkpoint) }
}
