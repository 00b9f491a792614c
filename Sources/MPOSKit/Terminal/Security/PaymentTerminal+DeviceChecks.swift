import Foundation
import MPOSCore

// The terminal's side of the device checks: the reference taken at each online login, the
// checks before each card payment, and the offline-only ones before a sale is stored.
extension PaymentTerminal {
    /// Sets the device checks run before every card payment (the initializer's
    /// `deviceChecks`). Set them before ``login()``: each login takes the reference of the
    /// clock and restart checks through their probe.
    func setDeviceChecks(_ checks: DeviceChecks) { security.checks = checks }

    /// Notes what the device and the gateway say now, at an online login: the reference of
    /// the device checks, and the start of the offline window, on the device's clock (the
    /// offline policy judges the window against the device's date at the sale).
    func noteOnlineSession() async {
        let state = await security.checks.probe.state()
        security.checkpoint = DeviceCheckpoint(
            deviceDate: state.date, gatewayDate: await client.gatewayTime, sinceBoot: state.sinceBoot,
            bootID: state.bootID)
        offlineState.lastOnlineSession = state.date
    }

    /// Throws why this device may take no card payment now; returns the device's state, which
    /// the payment's offline checks read too.
    ///
    /// - Throws: ``MPOSError/debuggerEnabled``, ``MPOSError/nonSelfResolvable``,
    ///   ``MPOSError/screenRecording``, ``MPOSError/screenCaptured``,
    ///   ``MPOSError/passcodeNotEnabled``, ``MPOSError/localTimeTampering``.
    @discardableResult
    func checkDevice() async throws(MPOSError) -> DeviceState {
        let state = await security.checks.probe.state()
        if let refusal = security.checks.refusal(state, since: security.checkpoint) { throw refusal }
        return state
    }
}
