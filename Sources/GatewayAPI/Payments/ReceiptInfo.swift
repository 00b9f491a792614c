import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Receipt facts assigned by the gateway.
public struct ReceiptInfo: Codable, Sendable, Hashable {
    /// The receipt number, increasing per merchant.
    public var receiptNumber: Int
    /// Whether the merchant copy needs a signature line.
    public var signatureRequired: Bool
    /// The terminal or SDK installation id, if known.
    public var terminalID: String?

    /// Creates receipt facts.
    public init(receiptNumber: Int, signatureRequired: Bool, terminalID: String? = nil) {
        self.receiptNumber = receiptNumber
        self.signatureRequired = signatureRequired
        self.terminalID = terminalID
    }
}
