import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A transaction as the gateway records it: the answer of every payment route.
public struct Transaction: Codable, Sendable, Hashable {
    /// The gateway's id.
    public var id: TransactionID
    /// The transaction this one acts on (the sale of a refund, the authorisation of a
    /// capture), if any.
    public var originalID: TransactionID?
    /// What it does.
    public var kind: TransactionKind
    /// Its outcome.
    public var status: FinancialStatus
    /// The amount asked for, minor units.
    public var requestedAmount: Int64
    /// The amount approved (less on a partial approval, 0 when declined).
    public var approvedAmount: Int64
    /// The tip, minor units.
    public var tipAmount: Int64
    /// Approved amount plus tip.
    public var totalAmount: Int64
    /// The currency.
    public var currency: Currency
    /// The issuer's approval code (six characters), when approved.
    public var authorizationCode: String?
    /// The authorisation response code (EMV 8A), such as `"00"` or `"05"`.
    public var responseCode: String?
    /// Issuer authentication data (EMV 91, ARPC and CSU), hex, for the card's second
    /// GENERATE AC.
    public var issuerAuthenticationData: String?
    /// Issuer scripts (EMV 71/72 templates), hex, if any.
    public var issuerScripts: String?
    /// The acquirer's message; for display, not for logic.
    public var acquirerMessage: String?
    /// The settlement batch, once assigned.
    public var batchID: String?
    /// The card, for card transactions.
    public var card: CardSummary?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// EMV values for the receipt.
    public var emv: EMVSummary?
    /// The merchant's reference.
    public var customerReference: String?
    /// The customer's name the merchant recorded with a cash payment (a card's name is in
    /// ``card``).
    public var cardholderName: String?
    /// The merchant's unique id.
    public var externalID: String?
    /// The statement descriptor as sent to the issuer.
    public var statementDescriptor: String?
    /// When the gateway recorded it.
    public var createdAt: Date
    /// Receipt facts.
    public var receipt: ReceiptInfo?

    /// Creates a transaction.
    public init(
        id: TransactionID, originalID: TransactionID? = nil, kind: TransactionKind,
        status: FinancialStatus, requestedAmount: Int64, approvedAmount: Int64,
        tipAmount: Int64 = 0, totalAmount: Int64, currency: Currency,
        authorizationCode: String? = nil, responseCode: String? = nil,
        issuerAuthenticationData: String? = nil, issuerScripts: String? = nil,
        acquirerMessage: String? = nil, batchID: String? = nil, card: CardSummary? = nil,
        entryMode: CardEntryMode? = nil, cvm: CardholderVerification? = nil,
        emv: EMVSummary? = nil, customerReference: String? = nil, externalID: String? = nil,
        statementDescriptor: String? = nil, createdAt: Date, receipt: ReceiptInfo? = nil,
        cardholderName: String? = nil
    ) {
        self.cardholderName = cardholderName
        self.id = id
        self.originalID = originalID
        self.kind = kind
        self.status = status
        self.requestedAmount = requestedAmount
        self.approvedAmount = approvedAmount
        self.tipAmount = tipAmount
        self.totalAmount = totalAmount
        self.currency = currency
        self.authorizationCode = authorizationCode
        self.responseCode = responseCode
        self.issuerAuthenticationData = issuerAuthenticationData
        self.issuerScripts = issuerScripts
        self.acquirerMessage = acquirerMessage
        self.batchID = batchID
        self.card = card
        self.entryMode = entryMode
        self.cvm = cvm
        self.emv = emv
        self.customerReference = customerReference
        self.externalID = externalID
        self.statementDescriptor = statementDescriptor
        self.createdAt = createdAt
        self.receipt = receipt
    }
}
