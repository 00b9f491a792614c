/// What a transaction does with the cardholder's money.
///
/// The raw values are the case names and are stable: they appear in stored records and
/// on the wire.
public enum TransactionKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A purchase: the cardholder pays the merchant, authorised and captured at once.
    case sale
    /// Money returned to the cardholder for an earlier purchase, or as a standalone credit.
    case refund
    /// Cancels a sale before it settles, so the cardholder is never charged.
    case saleVoid
    /// Cancels a refund before it settles, so the credit never reaches the cardholder.
    case refundVoid
    /// Reserves funds on the card for an amount known now, to be captured later.
    case authorization
    /// Reserves an estimated amount (hotels, car hire), which may be adjusted and is
    /// captured later, possibly for a different amount.
    case preAuthorization
    /// Completes an earlier (pre-)authorisation, turning the reserved funds into a charge.
    case capture
    /// Changes the tip on an approved sale after the fact, before it settles.
    case tipAdjustment
    /// Cash disbursed to the cardholder against the card (cash advance or cashback).
    case cash
    /// A SEPA direct debit from the cardholder's bank account, authorised with the card.
    case sepa
}
