import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a card authorisation request does.
public enum CardPaymentKind: String, Codable, Sendable, Hashable, CaseIterable {
    /// Authorise and capture at once (unless ``CaptureMode`` says otherwise).
    case sale
    /// Reserve the amount, captured later.
    case authorization
    /// Reserve an estimated amount, captured later for possibly another amount.
    case preAuthorization
    /// Credit the card without reference to an earlier sale.
    case refundUnreferenced

    /// The transaction kind the gateway records.
    public var transactionKind: TransactionKind {
        switch self {
        case .sale: .sale
        case .authorization: .authorization
        case .preAuthorization: .preAuthorization
        case .refundUnreferenced: .refund
        }
    }
}
