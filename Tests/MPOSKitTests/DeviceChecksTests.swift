import Foundation
import MPOSCore
import Testing

@testable import MPOSKit

/// The device checks' decisions on states a test sets: each check refuses with its typed
/// error and the seed's name and description, a device passing all is not refused, and the
/// clock checks hold at their edges.
@Suite(.timeLimit(.minutes(1)))
struct DeviceChecksTests {
    static let gateway = Date(timeIntervalSince1970: 1_795_000_000)
    static let bootedFor: Duration = .seconds(86_400)

    /// A sound device, at the gateway's own time at login.
    static let sound = DeviceState(
        date: gateway, sinceBoot: bootedFor, bootID: "boot-a", debuggerAttached: false, screenCapture: .none,
        passcodeSet: true, jailbreakSign: nil)

    /// The login's reference, the device's clock `offset` off the gateway's.
    static func checkpoint(offset: TimeInterval = 0, gatewayDate: Date? = gateway) -> DeviceCheckpoint {
        DeviceCheckpoint(
            deviceDate: gateway.addingTimeInterval(offset), gatewayDate: gatewayDate, sinceBoot: bootedFor,
            bootID: "boot-a")
    }

    /// The sound device `elapsed` seconds after the login, its date `skew` off the gateway's.
    static func later(_ elapsed: Int64, skew: TimeInterval) -> DeviceState {
        var state = sound
        state.sinceBoot = bootedFor + .seconds(elapsed)
        state.date = gateway.addingTimeInterval(TimeInterval(elapsed) + skew)
        return state
    }

    /// The seed's table: each failing state, its code, its name and its description.
    static let failures: [(DeviceState, Int, String, String)] = {
        func with(_ change: (inout DeviceState) -> Void) -> DeviceState {
            var state = sound
            change(&state)
            return state
        }
        return [
            (
                with { $0.debuggerAttached = true }, MPOSError.Code.debuggerEnabled, "DEBUGGER_ENABLED",
                "Transaction canceled."
            ),
            (
                with { $0.jailbreakSign = "/var/jb exists" }, MPOSError.Code.nonSelfResolvable,
                "NON_SELF_RESOLVABLE",
                "Transaction canceled. Unable to check the security requirements."
            ),
            (
                with { $0.screenCapture = .recording }, MPOSError.Code.screenRecording, "SCREEN_RECORDING",
                "Transaction canceled."
            ),
            (
                with { $0.screenCapture = .mirrored }, MPOSError.Code.screenCaptured, "SCREEN_CAPTURED",
                "Transaction canceled."
            ),
            (
                with { $0.passcodeSet = false }, MPOSError.Code.passcodeNotEnabled, "PASSCODE_NOT_ENABLED",
                "Transaction canceled. Device passcode was removed, offline transaction data may have been lost."
            ),
            (
                with { $0.date = gateway.addingTimeInterval(301) }, MPOSError.Code.localTimeTampering,
                "LOCAL_TIME_TAMPERING", "Transaction canceled. Unable to check the security requirements."
            ),
        ]
    }()

    @Test func eachFailingCheckRefusesWithTheSeedsNameAndDescription() {
        for (state, code, name, description) in Self.failures {
            let refusal = DeviceChecks.standard.refusal(state, since: Self.checkpoint())
            #expect(refusal?.code == code, "\(name)")
            #expect(refusal?.message.hasPrefix(name + ": ") == true, "\(refusal?.message ?? "none")")
            #expect(refusal?.customerMessage == description, "\(name)")
        }
        #expect(Set(Self.failures.map(\.1)).count == Self.failures.count)
    }

    @Test func aSoundDeviceIsNotRefused() {
        #expect(DeviceChecks.standard.refusal(Self.sound, since: Self.checkpoint()) == nil)
        #expect(DeviceChecks.standard.offlineRefusal(Self.sound, since: Self.checkpoint()) == nil)
        // Before any login there is no gateway time to compare with.
        #expect(DeviceChecks.standard.refusal(Self.later(0, skew: 3_600), since: nil) == nil)
    }

    @Test func aDebuggerIsAllowedOnlyWhenTheAppSaysSo() {
        var state = Self.sound
        state.debuggerAttached = true
        #expect(DeviceChecks.standard.refusal(state, since: nil)?.code == MPOSError.Code.debuggerEnabled)
        #expect(DeviceChecks(allowsDebugger: true).refusal(state, since: nil) == nil)
    }

    @Test func theClockIsTrustedUpToTheToleranceEitherWay() {
        let checks = DeviceChecks.standard
        for skew in [300.0, -300.0, 0.0, 299.999] {
            #expect(checks.refusal(Self.later(3_600, skew: skew), since: Self.checkpoint()) == nil, "\(skew)")
        }
        for skew in [300.001, -300.001, 301, -301, 86_400] {
            let refusal = checks.refusal(Self.later(3_600, skew: skew), since: Self.checkpoint())
            #expect(refusal?.code == MPOSError.Code.localTimeTampering, "\(skew)")
        }
        let ahead = checks.refusal(Self.later(60, skew: 600), since: Self.checkpoint())
        #expect(ahead?.message.contains("600 s ahead of the gateway's") == true, "\(ahead?.message ?? "")")
        let behind = checks.refusal(Self.later(60, skew: -600), since: Self.checkpoint())
        #expect(behind?.message.contains("600 s behind the gateway's") == true, "\(behind?.message ?? "")")
        // A tolerance the app chose.
        #expect(
            DeviceChecks(clockTolerance: .seconds(30)).refusal(
                Self.later(60, skew: 31), since: Self.checkpoint()) != nil)
    }

    /// The skew at login counts as it was: a device 10 minutes off the gateway's clock at
    /// login is refused even though its clock did not move since.
    @Test func aClockAlreadyOffAtLoginIsRefused() {
        var state = Self.sound
        state.date = Self.gateway.addingTimeInterval(600 + 60)
        state.sinceBoot = Self.bootedFor + .seconds(60)
        let refusal = DeviceChecks.standard.refusal(state, since: Self.checkpoint(offset: 600))
        #expect(refusal?.code == MPOSError.Code.localTimeTampering)
        // No gateway time (a client-token session): nothing to compare with.
        #expect(
            DeviceChecks.standard.refusal(state, since: Self.checkpoint(offset: 600, gatewayDate: nil)) == nil
        )
    }

    /// After a restart the time passed is unknown: the offset at login stands for the clock.
    @Test func afterARestartTheOffsetAtLoginDecides() {
        var state = Self.later(7_200, skew: 0)
        state.bootID = "boot-b"
        state.sinceBoot = .seconds(30)
        #expect(DeviceChecks.standard.refusal(state, since: Self.checkpoint(offset: 0)) == nil)
        #expect(
            DeviceChecks.standard.refusal(state, since: Self.checkpoint(offset: 400))?.code
                == MPOSError.Code.localTimeTampering)
    }

    @Test func aRestartSinceTheLastOnlineSessionIsASystemChangeOffline() {
        var state = Self.later(600, skew: 0)
        state.bootID = "boot-b"
        state.sinceBoot = .seconds(20)
        let refusal = DeviceChecks.standard.offlineRefusal(state, since: Self.checkpoint())
        #expect(refusal?.code == MPOSError.Code.systemChange)
        #expect(refusal?.message.hasPrefix("SYSTEM_CHANGE: the device restarted") == true)
        #expect(refusal?.customerMessage == "Transaction canceled. Cannot transact due to system change.")
        // Online payments are not refused for a restart.
        #expect(DeviceChecks.standard.refusal(state, since: Self.checkpoint()) == nil)
        // No online session: the offline policy answers NO_TOKEN instead.
        #expect(DeviceChecks.standard.offlineRefusal(state, since: nil) == nil)
    }

    /// The date moved against the time since boot: trusted up to two minutes (NTP), a
    /// SYSTEM_CHANGE beyond, forward or back, even while still near the gateway's clock.
    @Test func aClockMovedSinceTheLastOnlineSessionIsASystemChangeOffline() {
        let login = Self.checkpoint(offset: -100)
        for moved in [120.0, -120.0, 0] {
            #expect(
                DeviceChecks.standard.offlineRefusal(Self.later(3_600, skew: -100 + moved), since: login)
                    == nil)
        }
        for moved in [120.001, -120.001, 180] {
            let refusal = DeviceChecks.standard.offlineRefusal(
                Self.later(3_600, skew: -100 + moved), since: login)
            #expect(refusal?.code == MPOSError.Code.systemChange, "\(moved)")
            #expect(refusal?.message.contains("date and time moved") == true)
        }
        // 180 s forward from 100 s behind is 80 s ahead: within the clock check's tolerance.
        #expect(DeviceChecks.standard.refusal(Self.later(3_600, skew: 80), since: login) == nil)
    }
}

/// The real probe's pieces on this machine.
@Suite(.timeLimit(.minutes(1)))
struct SystemDeviceProbeTests {
    @Test func theTracerIsReadFromProcessStatus() {
        let status = "Name:\tmpos\nState:\tR (running)\nTgid:\t42\nTracerPid:\t%@\nUid:\t0\t0\t0\t0\n"
        #expect(
            SystemDeviceProbe.tracerPID(inProcessStatus: status.replacingOccurrences(of: "%@", with: "0"))
                == 0)
        #expect(
            SystemDeviceProbe.tracerPID(inProcessStatus: status.replacingOccurrences(of: "%@", with: "31337"))
                == 31_337)
        #expect(SystemDeviceProbe.tracerPID(inProcessStatus: "Name:\tmpos\n") == nil)
        #expect(SystemDeviceProbe.tracerPID(inProcessStatus: "TracerPid:\tnone\n") == nil)
    }

    #if os(Linux)
        @Test func noDebuggerIsAttachedUnderTheTestRunner() throws {
            let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            #expect(SystemDeviceProbe.tracerPID(inProcessStatus: text) == 0)
            #expect(!SystemDeviceProbe.debuggerAttached())
        }

        @Test func theBootAndTheTimeSinceBootAreRead() async throws {
            let first = await SystemDeviceProbe().state()
            let bootID = try #require(first.bootID)
            #expect(UUID(uuidString: bootID) != nil, "\(bootID)")
            let since = try #require(first.sinceBoot)
            #expect(since > .zero)
            let second = await SystemDeviceProbe().state()
            #expect(second.bootID == bootID)
            #expect(try #require(second.sinceBoot) >= since)
            #expect(first.screenCapture == .none && first.passcodeSet == nil && first.jailbreakSign == nil)
        }
    #endif
}
