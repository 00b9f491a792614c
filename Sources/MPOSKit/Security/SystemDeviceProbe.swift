import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The device's real state: the debugger, boot and clock from the kernel (Linux: `/proc`;
/// Apple platforms: `sysctl`), and on iOS the screen, the passcode and signs of a jailbreak
/// (`UIKitDeviceState`).
public struct SystemDeviceProbe: DeviceProbe {
    /// Creates the probe.
    public init() {}

    /// The device's state now.
    public func state() async -> DeviceState {
        var state = DeviceState(
            date: Date(), sinceBoot: Self.sinceBoot(), bootID: Self.bootID(),
            debuggerAttached: Self.debuggerAttached())
        #if canImport(UIKit) && os(iOS) && !targetEnvironment(macCatalyst)
            (state.screenCapture, state.passcodeSet, state.jailbreakSign) = await UIKitDeviceState.read()
        #endif
        return state
    }

    /// The tracer's process id in the text of Linux's `/proc/self/status` (0: none), or nil
    /// when the text has no readable `TracerPid:` line.
    static func tracerPID(inProcessStatus text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("TracerPid:") {
            return Int(line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Whether a debugger (or any tracer) is attached to this process. A kernel that does not
    /// say counts as no debugger: the check cannot run there.
    static func debuggerAttached() -> Bool {
        #if os(Linux)
            // Documented above: a kernel that does not say counts as no debugger.
            guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
                return false
            }
            return (tracerPID(inProcessStatus: text) ?? 0) != 0
        #elseif canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
            guard sysctl(&name, u_int(name.count), &info, &size, nil, 0) == 0 else { return false }
            return info.kp_proc.p_flag & P_TRACED != 0
        #else
            return false
        #endif
    }

    /// This boot of the device. On Apple platforms the boot time stands for it; the kernel
    /// shifts it when the clock is set, which the checks then also take for a change.
    static func bootID() -> String? {
        #if os(Linux)
            // Unreadable is as on a platform without one: the restart check cannot run here.
            let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            return text?.trimmingCharacters(in: .whitespacesAndNewlines)
        #elseif canImport(Darwin)
            var boot = timeval()
            var size = MemoryLayout<timeval>.stride
            guard sysctlbyname("kern.boottime", &boot, &size, nil, 0) == 0 else { return nil }
            return "\(boot.tv_sec).\(boot.tv_usec)"
        #else
            return nil
        #endif
    }

    /// Time since boot, sleep included (Linux `CLOCK_BOOTTIME`; Apple `CLOCK_MONOTONIC`, which
    /// counts sleep there): unlike the date, nobody can set it.
    static func sinceBoot() -> Duration? {
        var now = timespec()
        #if os(Linux)
            guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return nil }
        #elseif canImport(Darwin)
            guard clock_gettime(CLOCK_MONOTONIC, &now) == 0 else { return nil }
        #else
            return nil
        #endif
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }
}
