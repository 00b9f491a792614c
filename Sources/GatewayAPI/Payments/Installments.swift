import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Instalment payments, where the issuer supports them.
public struct Installments: Codable, Sendable, Hashable {
    /// Number of instalments, 2...99.
    public var count: Int
    /// Interval between instalments in months, default 1.
    public var intervalMonths: Int?

    /// Creates an instalment plan.
    public init(count: Int, intervalMonths: Int? = nil) {
        self.count = count
        self.intervalMonths = intervalMonths
    }
}
