import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When an authorised sale's money is captured.
public enum CaptureMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// Authorise and capture at the requested amount (the default).
    case completedSale
    /// Authorise only; the capture route adds it to a settlement batch.
    case authUntilCapture
    /// Capture now but allow tip adjustment until the batch closes.
    case tipAdjustment
}
