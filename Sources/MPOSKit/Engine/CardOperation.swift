import GatewayAPI
import MPOSCore

/// What a card-present operation asks of the card and the gateway. Every one runs the same
/// journaled, idempotent flow of ``PaymentEngine``; they differ in the reader's transaction
/// type, the gateway route and the kind the gateway records.
///
/// The raw value is the operation the journal stores.
enum CardOperation: String, Sendable, Hashable, CaseIterable {
    /// Authorise and capture.
    case sale
    /// Reserve the amount; captured later with ``PaymentTerminal/capture(transactionID:amount:)``.
    case authorization
    /// Reserve an estimated amount; captured later, possibly for less.
    case preAuthorization
    /// Credit the card with no earlier sale to refer to.
    case refundUnreferenced
    /// A SEPA direct debit: the card identifies the bank account, the gateway records the
    /// mandate (EUR only).
    case sepa

    /// The kind the reader is started with (it sets the EMV transaction type, 9C).
    var readerKind: TransactionKind {
        switch self {
        case .sale: .sale
        case .authorization: .authorization
        case .preAuthorization: .preAuthorization
        case .refundUnreferenced: .refund
        case .sepa: .sepa
        }
    }

    /// The kind of `POST /v1/payments/card`; a SEPA debit goes to its own route and uses
    /// only the card fields of the request.
    var cardPaymentKind: CardPaymentKind {
        switch self {
        case .sale, .sepa: .sale
        case .authorization: .authorization
        case .preAuthorization: .preAuthorization
        case .refundUnreferenced: .refundUnreferenced
        }
    }

    /// The kind a result reports when the gateway recorded nothing.
    var transactionKind: TransactionKind { readerKind }
}
