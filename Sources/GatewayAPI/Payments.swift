#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

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

/// When an authorised sale's money is captured.
public enum CaptureMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// Authorise and capture at the requested amount (the default).
    case completedSale
    /// Authorise only; the capture route adds it to a settlement batch.
    case authUntilCapture
    /// Capture now but allow tip adjustment until the batch closes.
    case tipAdjustment
}

/// Where a payment was taken.
public struct GeoLocation: Codable, Sendable, Hashable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    /// Creates a location.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One line of a basket.
public struct BasketItem: Codable, Sendable, Hashable {
    /// What was sold, 1...100 characters.
    public var name: String
    /// How many, 1 or more.
    public var quantity: Int
    /// Price of one, in minor units, tax included.
    public var unitPrice: Int64
    /// Tax rate in basis points: 1900 is 19 % (the Accept convention: 700 is 7 %).
    public var taxBasisPoints: Int
    /// The merchant's article number, if any.
    public var sku: String?

    /// Creates a basket line.
    public init(name: String, quantity: Int, unitPrice: Int64, taxBasisPoints: Int = 0, sku: String? = nil) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.taxBasisPoints = taxBasisPoints
        self.sku = sku
    }
}

/// What the customer bought; when present the request's amount must equal the sum of the
/// lines plus gratuity and service charge.
public struct Basket: Codable, Sendable, Hashable {
    /// The lines.
    public var items: [BasketItem]
    /// Tip included in the amount, in minor units.
    public var gratuity: Int64?
    /// Service charge included in the amount, in minor units.
    public var serviceCharge: Int64?
    /// Where the sale took place.
    public var location: GeoLocation?

    /// Creates a basket.
    public init(items: [BasketItem], gratuity: Int64? = nil, serviceCharge: Int64? = nil, location: GeoLocation? = nil) {
        self.items = items
        self.gratuity = gratuity
        self.serviceCharge = serviceCharge
        self.location = location
    }
}

/// Instalment payments, where the issuer supports them.
public struct Installments: Codable, Sendable, Hashable {
    /// Number of instalments, 2...99.
    public var count: Int
    /// Interval between instalments in months, default 1.
    public var intervalMonths: Int?

    /// Creates an instalment plan.
    public init(count: Int, intervalMonths: Int? = nil) {
        self.count = count
        self.intervalMonths = intervalMonths
    }
}

/// `POST /v1/payments/card`: authorise a card payment (sale, authorisation,
/// pre-authorisation or unreferenced refund) with the data the reader produced.
///
/// Card data reaches the gateway only encrypted at the reader (`encryptedCardData` under the
/// DUKPT key identified by `ksn`); `maskedPAN` is first 6 / last 4 at most.
///
/// Rules the gateway checks (4001 when broken): `amount` > 0; a currency with minor units;
/// hex fields are even-length hex; `externalID` ≤ 50 characters; `statementDescriptor`
/// 1...22 characters with at least one letter and none of `< > " '`, and with the suffix
/// (`descriptor + "* " + suffix`) still ≤ 22, counted after non-ASCII characters are
/// stripped and spaces at either end trimmed; see ``GatewayValidation``.
public struct AuthorizeCardRequest: Codable, Sendable, Hashable {
    /// What to do.
    public var kind: CardPaymentKind
    /// The amount in minor units, tip and charges included.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// The EMV data (BER-TLV: ARQC, CDOL1 data, TVR, …) as hex, for chip and contactless.
    public var emvData: String?
    /// Card data (Track 2 equivalent) sealed at the reader, as hex.
    public var encryptedCardData: String?
    /// The DUKPT key serial number that sealed `encryptedCardData`, as hex.
    public var ksn: String?
    /// The masked card number as the reader shows it (first 6, last 4).
    public var maskedPAN: String?
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// Whether the cardholder is present (default `true`).
    public var cardholderPresent: Bool
    /// The merchant's reference for the customer or order.
    public var customerReference: String?
    /// The merchant's unique id for the payment, ≤ 50 characters.
    public var externalID: String?
    /// Text on the cardholder's statement, ≤ 22 characters, at least one letter, none of
    /// `< > " '`; non-ASCII characters are stripped and the gateway stores it upper case.
    public var statementDescriptor: String?
    /// Detail appended to the descriptor as `descriptor* suffix`; the whole ≤ 22 characters.
    public var statementDescriptorSuffix: String?
    /// Refuse a payment that repeats a recent one (default `true`).
    public var duplicateCheck: Bool
    /// Accept an approval for less than the amount (default `false`).
    public var allowPartialApproval: Bool
    /// When to capture (default ``CaptureMode/completedSale``).
    public var captureMode: CaptureMode
    /// Instalments, if any.
    public var installments: Installments?
    /// What was bought, if known.
    public var basket: Basket?

    /// Creates a request; see the properties for the defaults.
    public init(
        kind: CardPaymentKind, amount: Int64, currency: Currency, emvData: String? = nil,
        encryptedCardData: String? = nil, ksn: String? = nil, maskedPAN: String? = nil,
        entryMode: CardEntryMode, cvm: CardholderVerification, cardholderPresent: Bool = true,
        customerReference: String? = nil, externalID: String? = nil,
        statementDescriptor: String? = nil, statementDescriptorSuffix: String? = nil,
        duplicateCheck: Bool = true, allowPartialApproval: Bool = false,
        captureMode: CaptureMode = .completedSale, installments: Installments? = nil,
        basket: Basket? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.maskedPAN = maskedPAN
        self.entryMode = entryMode
        self.cvm = cvm
        self.cardholderPresent = cardholderPresent
        self.customerReference = customerReference
        self.externalID = externalID
        self.statementDescriptor = statementDescriptor
        self.statementDescriptorSuffix = statementDescriptorSuffix
        self.duplicateCheck = duplicateCheck
        self.allowPartialApproval = allowPartialApproval
        self.captureMode = captureMode
        self.installments = installments
        self.basket = basket
    }

    private enum CodingKeys: String, CodingKey {
        case kind, amount, currency, emvData, encryptedCardData, ksn, maskedPAN, entryMode, cvm
        case cardholderPresent, customerReference, externalID, statementDescriptor
        case statementDescriptorSuffix, duplicateCheck, allowPartialApproval, captureMode
        case installments, basket
    }

    /// Decodes a request, filling in the defaults of omitted optional flags.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.kind = try c.decode(CardPaymentKind.self, forKey: .kind)
        self.amount = try c.decode(Int64.self, forKey: .amount)
        self.currency = try c.decode(Currency.self, forKey: .currency)
        self.emvData = try c.decodeIfPresent(String.self, forKey: .emvData)
        self.encryptedCardData = try c.decodeIfPresent(String.self, forKey: .encryptedCardData)
        self.ksn = try c.decodeIfPresent(String.self, forKey: .ksn)
        self.maskedPAN = try c.decodeIfPresent(String.self, forKey: .maskedPAN)
        self.entryMode = try c.decode(CardEntryMode.self, forKey: .entryMode)
        self.cvm = try c.decode(CardholderVerification.self, forKey: .cvm)
        self.cardholderPresent = try c.decodeIfPresent(Bool.self, forKey: .cardholderPresent) ?? true
        self.customerReference = try c.decodeIfPresent(String.self, forKey: .customerReference)
        self.externalID = try c.decodeIfPresent(String.self, forKey: .externalID)
        self.statementDescriptor = try c.decodeIfPresent(String.self, forKey: .statementDescriptor)
        self.statementDescriptorSuffix = try c.decodeIfPresent(String.self, forKey: .statementDescriptorSuffix)
        self.duplicateCheck = try c.decodeIfPresent(Bool.self, forKey: .duplicateCheck) ?? true
        self.allowPartialApproval = try c.decodeIfPresent(Bool.self, forKey: .allowPartialApproval) ?? false
        self.captureMode = try c.decodeIfPresent(CaptureMode.self, forKey: .captureMode) ?? .completedSale
        self.installments = try c.decodeIfPresent(Installments.self, forKey: .installments)
        self.basket = try c.decodeIfPresent(Basket.self, forKey: .basket)
    }
}

/// `POST /v1/transactions/{id}/capture`: capture an authorisation.
public struct CaptureRequest: Codable, Sendable, Hashable {
    /// The amount to capture in minor units; `nil` captures the full authorised amount.
    public var amount: Int64?

    /// Creates the request.
    public init(amount: Int64? = nil) { self.amount = amount }
}

/// `POST /v1/transactions/{id}/tip`: set the tip of an approved sale before its batch
/// closes.
public struct TipAdjustRequest: Codable, Sendable, Hashable {
    /// The new tip in minor units (replaces any earlier tip), ≥ 0.
    public var tipAmount: Int64

    /// Creates the request.
    public init(tipAmount: Int64) { self.tipAmount = tipAmount }
}

/// `POST /v1/transactions/{id}/void`: cancel a sale or refund before its batch closes.
public struct VoidRequest: Codable, Sendable, Hashable {
    /// Why, for the merchant's records.
    public var reason: String?

    /// Creates the request.
    public init(reason: String? = nil) { self.reason = reason }
}

/// Why a transaction is reversed.
public enum ReversalReason: String, Codable, Sendable, Hashable, CaseIterable {
    /// The merchant or the app asked for it.
    case merchantRequest
    /// The card declined (second GENERATE AC returned an AAC) what the host approved.
    case cardDeclined
    /// The terminal did not receive the host's answer in time.
    case timeout
    /// The card was removed before completion.
    case cardRemoved
    /// Another terminal or SDK error after approval.
    case terminalError
}

/// `POST /v1/transactions/{id}/reverse`: undo an authorisation at the issuer.
public struct ReverseRequest: Codable, Sendable, Hashable {
    /// Why.
    public var reason: ReversalReason?

    /// Creates the request.
    public init(reason: ReversalReason? = nil) { self.reason = reason }
}

/// `POST /v1/transactions/{id}/refund`: refund (part of) a captured sale.
public struct RefundRequest: Codable, Sendable, Hashable {
    /// The amount in minor units; `nil` refunds what remains.
    public var amount: Int64?
    /// Why, for the merchant's records.
    public var reason: String?

    /// Creates the request.
    public init(amount: Int64? = nil, reason: String? = nil) {
        self.amount = amount
        self.reason = reason
    }
}

/// `POST /v1/payments/cash`: record a cash sale or cash refund (no card involved).
public struct CashPaymentRequest: Codable, Sendable, Hashable {
    /// `sale` or `refund`.
    public var kind: TransactionKind
    /// Amount in minor units, > 0.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// The merchant's reference for the customer or order.
    public var customerReference: String?
    /// The merchant's unique id for the payment, ≤ 50 characters.
    public var externalID: String?
    /// What was bought.
    public var basket: Basket?

    /// Creates the request.
    public init(
        kind: TransactionKind = .sale, amount: Int64, currency: Currency,
        customerReference: String? = nil, externalID: String? = nil, basket: Basket? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.customerReference = customerReference
        self.externalID = externalID
        self.basket = basket
    }
}

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

    /// Creates the request.
    public init(
        amount: Int64, currency: Currency, encryptedCardData: String? = nil, ksn: String? = nil,
        emvData: String? = nil, maskedPAN: String? = nil, entryMode: CardEntryMode,
        mandateReference: String? = nil, customerReference: String? = nil,
        externalID: String? = nil, basket: Basket? = nil
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
    }
}

/// The card as the gateway reports it: never more than first 6 / last 4 of the number.
public struct CardSummary: Codable, Sendable, Hashable {
    /// The scheme, such as `"visa"`, `"mastercard"`, `"maestro"`, `"amex"`.
    public var scheme: String
    /// The masked number, such as `"476173******0010"`.
    public var maskedPAN: String
    /// The cardholder name as the card carries it, if any.
    public var cardholderName: String?
    /// Expiry month, 1...12.
    public var expiryMonth: Int?
    /// Expiry year, four digits.
    public var expiryYear: Int?

    /// Creates a card summary.
    public init(scheme: String, maskedPAN: String, cardholderName: String? = nil, expiryMonth: Int? = nil, expiryYear: Int? = nil) {
        self.scheme = scheme
        self.maskedPAN = maskedPAN
        self.cardholderName = cardholderName
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
    }
}

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
    public init(aid: String, applicationLabel: String? = nil, tvr: String? = nil, tsi: String? = nil, applicationCryptogram: String? = nil) {
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.tvr = tvr
        self.tsi = tsi
        self.applicationCryptogram = applicationCryptogram
    }
}

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
        statementDescriptor: String? = nil, createdAt: Date, receipt: ReceiptInfo? = nil
    ) {
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

/// A currency's totals in a batch.
public struct BatchTotal: Codable, Sendable, Hashable {
    /// The currency.
    public var currency: Currency
    /// Number of sales and captures.
    public var saleCount: Int
    /// Their total, minor units, tips included.
    public var saleAmount: Int64
    /// Number of refunds.
    public var refundCount: Int
    /// Their total, minor units.
    public var refundAmount: Int64
    /// Sales minus refunds.
    public var netAmount: Int64

    /// Creates a batch total.
    public init(currency: Currency, saleCount: Int, saleAmount: Int64, refundCount: Int, refundAmount: Int64, netAmount: Int64) {
        self.currency = currency
        self.saleCount = saleCount
        self.saleAmount = saleAmount
        self.refundCount = refundCount
        self.refundAmount = refundAmount
        self.netAmount = netAmount
    }
}

/// `POST /v1/batches/close`: a closed settlement batch.
public struct Batch: Codable, Sendable, Hashable {
    /// The batch id.
    public var id: String
    /// When its first transaction was recorded (or it was opened).
    public var openedAt: Date
    /// When it was closed.
    public var closedAt: Date
    /// Number of transactions in it.
    public var transactionCount: Int
    /// Totals per currency.
    public var totals: [BatchTotal]

    /// Creates a batch.
    public init(id: String, openedAt: Date, closedAt: Date, transactionCount: Int, totals: [BatchTotal]) {
        self.id = id
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.transactionCount = transactionCount
        self.totals = totals
    }
}
