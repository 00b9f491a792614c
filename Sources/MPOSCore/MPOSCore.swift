/// MPOSCore: money in minor units, ISO 4217 currencies, the shared vocabulary of
/// transactions and readers, and the error pattern every MPOSKit module follows.
/// It does no I/O.
public enum MPOSCoreInfo {
    /// The version of the MPOSKit package this module was built from.
    public static let version = "0.1.0"
}
