import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /v1/transactions/{id}/receipt`: everything a receipt shows (the mandatory
/// scheme fields included), to print or render.
public struct ReceiptData: Codable, Sendable, Hashable {
    /// The transaction.
    public var transactionID: TransactionID
    /// The receipt number.
    public var receiptNumber: Int
    /// The merchant's name.
    public var merchantName: String
    /// The merchant's address.
    public var merchantAddress: String?
    /// The merchant id (MID).
    public var merchantID: String
    /// The terminal id, if known.
    public var terminalID: String?
    /// When the transaction was recorded.
    public var date: Date
    /// What it was.
    public var kind: TransactionKind
    /// Its outcome.
    public var status: FinancialStatus
    /// The basket lines (empty without a basket).
    public var lines: [ReceiptLine]
    /// Taxes per rate.
    public var taxes: [ReceiptTax]
    /// The tip.
    public var tipAmount: Int64
    /// The total.
    public var totalAmount: Int64
    /// The currency.
    public var currency: Currency
    /// The card, for card transactions.
    public var card: CardSummary?
    /// EMV values (AID, label, TVR, TSI, cryptogram).
    public var emv: EMVSummary?
    /// The approval code.
    public var authorizationCode: String?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// Whether the merchant copy needs a signature line.
    public var signatureRequired: Bool

    /// Creates receipt data.
    public init(
        transactionID: TransactionID, receiptNumber: Int, merchantName: String,
        merchantAddress: String? = nil, merchantID: String, terminalID: String? = nil, date: Date,
        kind: TransactionKind, status: FinancialStatus, lines: [ReceiptLine] = [],
        taxes: [ReceiptTax] = [], tipAmount: Int64 = 0, totalAmount: Int64, currency: Currency,
        card: CardSummary? = nil, emv: EMVSummary? = nil, authorizationCode: String? = nil,
        entryMode: CardEntryMode? = nil, cvm: CardholderVerification? = nil,
        signatureRequired: Bool = false
    ) {
        self.transactionID = transactionID
        self.receiptNumber = receiptNumber
        self.merchantName = merchantName
        self.merchantAddress = merchantAddress
        self.merchantID = merchantID
        self.terminalID = terminalID
        self.date = date
        self.kind = kind
        self.status = status
        self.lines = lines
        self.taxes = taxes
        self.tipAmount = tipAmount
        self.totalAmount = totalAmount
        self.currency = currency
        self.card = card
        self.emv = emv
        self.authorizationCode = authorizationCode
        self.entryMode = entryMode
        self.cvm = cvm
        self.signatureRequired = signatureRequired
    }
}
