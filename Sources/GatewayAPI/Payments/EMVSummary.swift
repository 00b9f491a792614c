import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The EMV values a receipt must show.
public struct EMVSummary: Codable, Sendable, Hashable {
    /// The application identifier (9F06/4F), hex.
    public var aid: String
    /// The application label or preferred name.
    public var applicationLabel: String?
    /// Terminal verification results (95), hex.
    public var tvr: String?
    /// Transaction status information (9B), hex.
    public var tsi: String?
    /// The application cryptogram (9F26), hex.
    public var applicationCryptogram: String?

    /// Creates an EMV summary.
    public init(
        aid: String, applicationLabel: String? = nil, tvr: String? = nil, tsi: String? = nil,
        applicationCryptogram: String? = nil
    ) {
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.tvr = tvr
        self.tsi = tsi
        self.applicationCryptogram = applicationCryptogram
    }
}
