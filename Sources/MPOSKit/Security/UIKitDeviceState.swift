#if canImport(UIKit) && os(iOS) && !targetEnvironment(macCatalyst)
    import Foundation
    import LocalAuthentication
    import UIKit

    /// The iPhone and iPad checks of the seed's table: the screen, the passcode and a
    /// jailbreak heuristic. Compiles to nothing on Linux and Mac Catalyst.
    enum UIKitDeviceState {
        /// Files only a jailbreak installs (package managers, substrate, an SSH server, the
        /// rootless jailbreaks' `/var/jb`); the iOS sandbox hides none of them.
        static let jailbreakFiles = [
            "/Applications/Cydia.app", "/Applications/Sileo.app",
            "/Library/MobileSubstrate/MobileSubstrate.dylib",
            "/usr/sbin/sshd", "/usr/bin/ssh", "/etc/apt", "/private/var/lib/apt", "/var/jb",
        ]

        /// The screen's capture, whether a passcode is set, and the first sign of a jailbreak.
        static func read() async -> (DeviceState.ScreenCapture, Bool?, String?) {
            let screen = await MainActor.run { screenCapture() }
            #if targetEnvironment(simulator)
                // A simulator has no passcode unless set by hand, and takes no real card.
                let passcode: Bool? = nil
            #else
                // Biometrics need a passcode, so device-owner authentication is possible
                // exactly when a passcode is set.
                let passcode: Bool? = LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil)
            #endif
            return (screen, passcode, jailbreakSign())
        }

        /// Mirrored when one of the app's scenes is on an external display, recording when one
        /// of its window scenes is captured otherwise (recorded, mirrored or streamed: the
        /// scene's capture-state trait, which replaces `UIScreen.isCaptured`).
        @MainActor static func screenCapture() -> DeviceState.ScreenCapture {
            let scenes = UIApplication.shared.connectedScenes
            if scenes.contains(where: { $0.session.role == .windowExternalDisplayNonInteractive }) {
                return .mirrored
            }
            let captured = scenes.compactMap { $0 as? UIWindowScene }.contains {
                $0.traitCollection.sceneCaptureState == .active
            }
            return captured ? .recording : .none
        }

        /// A heuristic: a jailbreak's files, or a write outside the app's sandbox that succeeds.
        /// The simulator runs on a Mac's file system, so it is never checked.
        static func jailbreakSign() -> String? {
            #if targetEnvironment(simulator)
                return nil
            #else
                if let file = jailbreakFiles.first(where: { FileManager.default.fileExists(atPath: $0) }) {
                    return "\(file) exists"
                }
                let outside = "/private/mposkit-sandbox-probe"
                // A refused write is the answer expected in a sandbox, not an error.
                if (try? Data("x".utf8).write(to: URL(fileURLWithPath: outside))) != nil {
                    // Best effort: the sign is found either way.
                    try? FileManager.default.removeItem(atPath: outside)
                    return "the app could write \(outside), outside its sandbox"
                }
                return nil
            #endif
        }
    }
#endif
