import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/payments/sepa`: record a SEPA direct debit authorised with the customer's
/// card (the card identifies the bank account; the mandate is signed on the terminal).
public struct SEPAPaymentRequest: Codable, Sendable, Hashable {
    /// Amount in minor units, > 0; the currency must be EUR.
    public var amount: Int64
    /// The currency (EUR).
    public var currency: Currency
    /// Card data sealed at the reader, as hex.
    public var encryptedCardData: String?
    /// The DUKPT key serial number, as hex.
    public var ksn: String?
    /// The EMV data as hex.
    public var emvData: String?
    /// The masked card number (first 6, last 4).
    public var maskedPAN: String?
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// The mandate reference, if the merchant assigns one.
    public var mandateReference: String?
    /// The merchant's reference for the customer or order.
    public var customerReference: String?
    /// The merchant's unique id for the payment, ≤ 50 characters.
    public var externalID: String?
    /// What was bought.
    public var basket: Basket?
    /// The reader the card was read on: judged by its update deadlines as for a card payment
    /// (``AuthorizeCardRequest/reader``); without it no deadline is checked.
    public var reader: PaymentReader?

    /// Creates the request.
    public init(
        amount: Int64, currency: Currency, encryptedCardData: String? = nil, ksn: String? = nil,
        emvData: String? = nil, maskedPAN: String? = nil, entryMode: CardEntryMode,
        mandateReference: String? = nil, customerReference: String? = nil,
        externalID: String? = nil, basket: Basket? = nil, reader: PaymentReader? = nil
    ) {
        self.amount = amount
        self.currency = currency
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.emvData = emvData
        self.maskedPAN = maskedPAN
        self.entryMode = entryMode
        self.mandateReference = mandateReference
        self.customerReference = customerReference
        self.externalID = externalID
        self.basket = basket
        self.reader = reader
    }
}
