#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which kind of gateway a terminal talks to: a sandbox, where nothing is charged, or
/// production. The ECP seed names them `"SBX"` and `"PROD"`.
public enum EnvironmentName: String, Codable, Sendable, Hashable, CaseIterable {
    /// A gateway where nothing is charged: test cards, scenarios, a simulated issuer.
    case sandbox
    /// A gateway that charges cards.
    case production

    /// The name from its own spelling or the ECP seed's (`"SBX"`, `"PROD"`), in any case;
    /// nil for anything else.
    public init?(named name: String) {
        switch name.trimmingCharacters(in: .whitespaces).lowercased() {
        case "sandbox", "sbx": self = .sandbox
        case "production", "prod": self = .production
        default: return nil
        }
    }
}
