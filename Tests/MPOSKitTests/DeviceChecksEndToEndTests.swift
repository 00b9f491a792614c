import Foundation
import MPOSCore
import MPOSTestSupport
import SandboxGateway
import Synchronization
import Testing

@testable import MPOSKit

/// A device whose state the test sets.
final class ScriptedDevice: DeviceProbe {
    private let current: Mutex<DeviceState>

    init(_ state: DeviceState) { current = Mutex(state) }

    func state() async -> DeviceState { current.withLock { $0 } }

    func set(_ state: DeviceState) { current.withLock { $0 = state } }
}

/// The machine's own device, its date read from the gateway's manual clock: the two agree.
struct DeviceOnGatewayClock: DeviceProbe {
    let clock: ManualDateSource
    let start: Date

    init(_ clock: ManualDateSource) {
        self.clock = clock
        start = clock.now()
    }

    /// The real device's state, living through the time the test moves the clock on: its date
    /// is the gateway's, and its time since boot runs on by as much.
    func state() async -> DeviceState {
        var state = await SystemDeviceProbe().state()
        state.date = clock.now()
        state.sinceBoot = state.sinceBoot.map { $0 + .seconds(clock.now().timeIntervalSince(start)) }
        return state
    }
}

/// The device checks through `PaymentTerminal`, against the sandbox gateway over HTTP (its
/// clock set by the test, its time in the login answer) and the simulated reader over TCP.
@Suite(.serialized, .timeLimit(.minutes(3))) struct DeviceChecksEndToEndTests {
    static func sale(_ amount: Int64, offline: Bool = false) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur, offlineAllowed: offline)
    }

    /// A sandbox whose gateway's clock reads ``DeviceChecksTests/gateway`` and a terminal on
    /// `device`, logged in while the device is sound at that same time.
    static func terminal(
        _ device: ScriptedDevice, transport: any GatewayTransport = ChaosTransport()
    ) async throws -> (Sandbox, PaymentTerminal) {
        let sandbox = try await Sandbox(gatewayClock: ManualDateSource(start: DeviceChecksTests.gateway))
        let terminal = try await sandbox.terminal(
            transport: transport, clock: ShortWaitsPassClock(upTo: .seconds(8)),
            deviceChecks: DeviceChecks(probe: device))
        return (sandbox, terminal)
    }

    static func refusal(_ terminal: PaymentTerminal, _ parameters: PaymentParameters) async -> MPOSError? {
        do {
            _ = try await terminal.sale(parameters)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachFailingCheckRefusesTheSaleBeforeTheCardIsReadAndASoundDeviceSells() async throws {
        let device = ScriptedDevice(DeviceChecksTests.sound)
        let (sandbox, terminal) = try await Self.terminal(device)
        for (state, code, name, description) in DeviceChecksTests.failures {
            device.set(state)
            let refusal = await Self.refusal(terminal, Self.sale(20_00))
            #expect(refusal?.code == code && refusal?.customerMessage == description, "\(name)")
            #expect(refusal?.message.hasPrefix(name + ":") == true, "\(refusal?.message ?? "approved")")
        }
        device.set(DeviceChecksTests.sound)
        let sold = try await terminal.sale(Self.sale(21_00))
        #expect(sold.status == .approved)
        // None of the refused sales reached the gateway.
        let sales = try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
        #expect(sales.map(\.id) == [sold.transactionID].compactMap { $0 })
        try await sandbox.close(terminal)
    }

    /// The gateway's clock stands still at its login answer's time; the device's date and its
    /// time since boot move: the skew is the device's date against the gateway's then plus
    /// the time passed, refused beyond five minutes either way, taken at five minutes exactly.
    @Test func theDevicesClockIsCheckedAgainstTheGatewaysAtTheEdges() async throws {
        let device = ScriptedDevice(DeviceChecksTests.sound)
        let (sandbox, terminal) = try await Self.terminal(device)
        for skew: TimeInterval in [301, -301, 3_600] {
            device.set(DeviceChecksTests.later(3_600, skew: skew))
            let refusal = await Self.refusal(terminal, Self.sale(22_00))
            #expect(refusal?.code == MPOSError.Code.localTimeTampering, "\(skew)")
        }
        for (skew, amount): (TimeInterval, Int64) in [(300, 22_01), (-300, 22_02)] {
            device.set(DeviceChecksTests.later(3_600, skew: skew))
            #expect(try await terminal.sale(Self.sale(amount)).status == .approved, "\(skew)")
        }
        try await sandbox.close(terminal)
    }

    /// A device ten minutes off the gateway when it logs in is refused until its clock is set
    /// right and it logs in again; with the system's own probe too.
    @Test func aDeviceOffTheGatewaysClockAtLoginIsRefusedUntilItIsSetRight() async throws {
        var off = DeviceChecksTests.sound
        off.date = DeviceChecksTests.gateway.addingTimeInterval(-600)
        let device = ScriptedDevice(off)
        let (sandbox, terminal) = try await Self.terminal(device)
        #expect(await Self.refusal(terminal, Self.sale(23_00))?.code == MPOSError.Code.localTimeTampering)
        device.set(DeviceChecksTests.sound)
        try await terminal.login()
        #expect(try await terminal.sale(Self.sale(23_01)).status == .approved)

        // The real device against a gateway whose clock runs ten minutes ahead of it.
        let ahead = try await Sandbox(gatewayClock: ManualDateSource(start: Date().addingTimeInterval(600)))
        let real = try await ahead.terminal(deviceChecks: .standard)
        let refusal = await Self.refusal(real, Self.sale(23_02))
        #expect(refusal?.code == MPOSError.Code.localTimeTampering)
        #expect(
            refusal?.message.contains("behind the gateway's") == true, "\(refusal?.message ?? "approved")")
        try await ahead.close(real)
        try await sandbox.close(terminal)
    }

    /// A restart (another boot id) or a clock moved since the last online session refuses
    /// sales offline with SYSTEM_CHANGE; online sales go on, and the next online login clears it.
    @Test func aRestartOrAMovedClockRefusesOfflineSalesNotOnlineOnes() async throws {
        let device = ScriptedDevice(DeviceChecksTests.sound)
        let outage = ChaosTransport()
        let (sandbox, terminal) = try await Self.terminal(device, transport: outage)
        var restarted = DeviceChecksTests.later(600, skew: 0)
        restarted.bootID = "boot-b"
        restarted.sinceBoot = .seconds(40)
        device.set(restarted)
        #expect(try await terminal.sale(Self.sale(24_00, offline: true)).status == .approved)
        outage.goDown(reaching: "/nothing")
        let refused = try await terminal.sale(Self.sale(24_01, offline: true))
        #expect(refused.status == .failed && refused.error?.code == MPOSError.Code.systemChange)
        #expect(refused.error?.message.hasPrefix("SYSTEM_CHANGE: the device restarted") == true)

        // Moved three minutes forward since the login: still near the gateway's clock.
        var moved = DeviceChecksTests.later(600, skew: 180)
        moved.bootID = "boot-a"
        device.set(moved)
        let movedRefusal = try await terminal.sale(Self.sale(24_02, offline: true))
        #expect(movedRefusal.error?.code == MPOSError.Code.systemChange)
        #expect(try await terminal.offline.list().payments.isEmpty)

        // Online again: the login is the new reference, and the sale is taken offline.
        outage.comeBack()
        sandbox.gatewayClock?.advance(by: 600)
        device.set(restarted)
        try await terminal.login()
        outage.goDown(reaching: "/nothing")
        #expect(try await terminal.sale(Self.sale(24_03, offline: true)).status == .approvedOffline)
        outage.comeBack()
        try await sandbox.close(terminal)
    }
}
