import MPOSCore

/// The currency of a transaction: ISO 4217 numeric or alphabetic code.
public enum TransactionCurrency: Sendable, Hashable {
    /// Numeric code, e.g. 978 for EUR.
    case numeric(UInt16)
    /// Alphabetic code, e.g. "EUR".
    case alphabetic(String)
}

/// Starts a financial transaction on the reader.
public struct StartTransaction: Sendable, Hashable {
    /// The SDK's identifier of the transaction.
    public var transactionID: String
    /// Sale, refund, void …
    public var kind: TransactionKind
    /// The amount in minor units.
    public var amountMinorUnits: Int64
    /// The amount's currency.
    public var currency: TransactionCurrency
    /// Tip amounts (minor units) the reader offers, if any.
    public var tipAmounts: [Int64]
    /// Tip percentages the reader offers, if any.
    public var tipPercentages: [UInt8]
    /// Whether the cardholder may type a tip of their own besides the offered ones. On the
    /// wire a trailing byte present only when true, so every other start keeps its older form.
    public var allowsCustomTip: Bool
    /// Whether the reader asks the cardholder for a tip (status ``ReaderStatusCode/tipInput``).
    public var offersTip: Bool { !tipAmounts.isEmpty || !tipPercentages.isEmpty || allowsCustomTip }
    /// Whether the cardholder is present.
    public var cardholderPresent: Bool
    /// The transaction a refund, void or capture refers to.
    public var originalTransactionID: String?

    /// Creates a start-transaction request.
    public init(
        transactionID: String, kind: TransactionKind, amountMinorUnits: Int64, currency: TransactionCurrency,
        tipAmounts: [Int64] = [], tipPercentages: [UInt8] = [], cardholderPresent: Bool = true,
        originalTransactionID: String? = nil, allowsCustomTip: Bool = false
    ) {
        self.allowsCustomTip = allowsCustomTip
        self.transactionID = transactionID
        self.kind = kind
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.tipAmounts = tipAmounts
        self.tipPercentages = tipPercentages
        self.cardholderPresent = cardholderPresent
        self.originalTransactionID = originalTransactionID
    }
}

/// Something happened to the card.
public enum CardEvent: UInt8, Sendable, Hashable, CaseIterable {
    /// A chip card was inserted.
    case inserted = 1
    /// The card was removed.
    case removed = 2
    /// A magnetic stripe was swiped.
    case swiped = 3
    /// A contactless card or device was tapped.
    case tapped = 4
}

/// The reader asks for online authorization. Card data is encrypted at the reader; the clear
/// PAN and track data never cross the link.
public struct AuthorizationRequest: Sendable, Hashable {
    /// The transaction being authorized.
    public var transactionID: String
    /// BER-TLV EMV data including the ARQC (9F26) and no clear PAN or track data.
    public var emvData: [UInt8]
    /// The card data envelope encrypted under the reader's DUKPT key.
    public var encryptedCardData: [UInt8]
    /// The key serial number of the DUKPT key used.
    public var ksn: [UInt8]
    /// The PAN, masked to first 6 / last 4.
    public var maskedPAN: String
    /// The cardholder name, when the card has one.
    public var cardholderName: String?
    /// The expiry, `YYMM`.
    public var expiry: String
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// The application label, for receipts.
    public var applicationLabel: String?
    /// The application identifier, for receipts.
    public var aid: [UInt8]?

    /// Creates an authorization request.
    public init(
        transactionID: String, emvData: [UInt8], encryptedCardData: [UInt8], ksn: [UInt8], maskedPAN: String,
        cardholderName: String? = nil, expiry: String, entryMode: CardEntryMode, cvm: CardholderVerification,
        applicationLabel: String? = nil, aid: [UInt8]? = nil
    ) {
        self.transactionID = transactionID
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.maskedPAN = maskedPAN
        self.cardholderName = cardholderName
        self.expiry = expiry
        self.entryMode = entryMode
        self.cvm = cvm
        self.applicationLabel = applicationLabel
        self.aid = aid
    }
}

/// The host's answer, sent to the reader to complete the transaction.
public struct HostResponse: Sendable, Hashable {
    /// The transaction being completed.
    public var transactionID: String
    /// Whether the host approved.
    public var approved: Bool
    /// The two-character authorization response code (tag 8A), e.g. "00".
    public var authorizationResponseCode: String
    /// The approval code, when approved.
    public var authorizationCode: String?
    /// Issuer authentication data (tag 91, with the ARPC).
    public var issuerAuthenticationData: [UInt8]
    /// Issuer scripts (tags 71/72), as BER-TLV.
    public var issuerScripts: [UInt8]

    /// Creates a host response. An empty response code means the host could not be reached.
    public init(
        transactionID: String, approved: Bool, authorizationResponseCode: String,
        authorizationCode: String? = nil,
        issuerAuthenticationData: [UInt8] = [], issuerScripts: [UInt8] = []
    ) {
        self.transactionID = transactionID
        self.approved = approved
        self.authorizationResponseCode = authorizationResponseCode
        self.authorizationCode = authorizationCode
        self.issuerAuthenticationData = issuerAuthenticationData
        self.issuerScripts = issuerScripts
    }
}

/// The kind of application cryptogram the card produced.
public enum CryptogramKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Transaction certificate: approved.
    case tc = 1
    /// Application authentication cryptogram: declined.
    case aac = 2
    /// Authorization request cryptogram: go online.
    case arqc = 3
}

/// How a transaction ended on the reader.
public struct TransactionOutcome: Sendable, Hashable {
    /// The transaction.
    public var transactionID: String
    /// The final cryptogram's kind.
    public var cryptogramType: CryptogramKind
    /// BER-TLV EMV data for the receipt and the clearing record (no clear PAN or track).
    public var emvData: [UInt8]
    /// The reader's final status.
    public var status: ReaderStatusCode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// Whether a PIN was verified (offline or online).
    public var pinVerified: Bool

    /// Creates an outcome.
    public init(
        transactionID: String, cryptogramType: CryptogramKind, emvData: [UInt8], status: ReaderStatusCode,
        cvm: CardholderVerification, entryMode: CardEntryMode, pinVerified: Bool
    ) {
        self.transactionID = transactionID
        self.cryptogramType = cryptogramType
        self.emvData = emvData
        self.status = status
        self.cvm = cvm
        self.entryMode = entryMode
        self.pinVerified = pinVerified
    }
}

/// A status report, as the reader moves through a transaction.
public struct StatusReport: Sendable, Hashable {
    /// The status.
    public var status: ReaderStatusCode
    /// The message the reader shows.
    public var message: String
    /// Whether a cancel request would be honoured now.
    public var cancelAllowed: Bool
    /// The transaction the status belongs to, if any.
    public var transactionID: String?

    /// Creates a status report.
    public init(status: ReaderStatusCode, message: String, cancelAllowed: Bool, transactionID: String? = nil)
    {
        self.status = status
        self.message = message
        self.cancelAllowed = cancelAllowed
        self.transactionID = transactionID
    }
}
