import Foundation
import MPOSKit
import Testing

/// `mpos --version` names the SDK's version and build number.
@Suite(.timeLimit(.minutes(1))) struct VersionCommandTests {
    @Test func versionPrintsTheSDKVersionAndBuildNumber() throws {
        let run = try EMVDecodeBinaryTests.run(["--version"])
        #expect(run.status == 0)
        #expect(run.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0 (build \(MPOSKitInfo.buildNumber))")
        #expect(!MPOSKitInfo.buildNumber.isEmpty && MPOSKitInfo.buildNumber.allSatisfy(\.isNumber))
    }
}
