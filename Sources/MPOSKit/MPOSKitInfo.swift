import MPOSCore

/// Which SDK the app runs: the version and build number to log with a support request
/// (Handpoint's `getSDKBuildNumber`).
public enum MPOSKitInfo {
    /// The package's semantic version, shared by every module.
    public static let version = MPOSCoreInfo.version
    /// The build of that version, raised with every release build: two builds of one version
    /// can then be told apart.
    public static let buildNumber = "1"
    /// `0.1.0 (build 1)`: the version and build as one line.
    public static var description: String { "\(version) (build \(buildNumber))" }
}
