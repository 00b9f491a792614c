import Foundation
import GatewayAPI
import MPOSCore

/// How an operation ended, from the app's point of view.
public enum PaymentStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The money moved (fully or, with partial approval, in part).
    case approved
    /// The issuer or the card refused; nothing was charged (an approval the card refused was
    /// reversed).
    case declined
    /// The cardholder, the merchant or a timeout cancelled; nothing was charged.
    case cancelled
    /// An error ended the operation; nothing was charged, or the journal finishes it later.
    case failed
    /// The gateway could not be reached and the card approved offline: the sale is stored
    /// (``PaymentResult/offlineID``) and forwarded later, when the gateway decides it for good.
    case approvedOffline
    /// The gateway received the refund and decides it later, as it does for merchants with
    /// asynchronous refunds: nothing is refunded yet, and nothing is lost either. The outcome
    /// comes by webhook, and ``PaymentTerminal/transaction(_:)``-style lookups of
    /// ``PaymentResult/transactionID`` show it once decided. The journal holds it as finished:
    /// it is neither retried nor reversed.
    case pending
}

/// The EMV values a receipt shows.
public struct EMVReceiptSummary: Sendable, Hashable, Codable {
    /// The application identifier, hex.
    public var aid: String?
    /// The application label.
    public var applicationLabel: String?
    /// The transaction certificate (9F26 of a TC), hex.
    public var transactionCertificate: String?
    /// The terminal verification results (95), hex.
    public var tvr: String?
    /// The transaction status information (9B), hex.
    public var tsi: String?
    /// The application preferred name (9F12), when the card has one: the name the card asks
    /// to be shown by, in the cardholder's alphabet (the ECP seed's `application_preferred_name`).
    public var applicationPreferredName: String?
    /// The account the cardholder chose at the reader (5F57), when the reader asked for one.
    public var accountType: AccountType?

    /// Creates a summary.
    public init(
        aid: String? = nil, applicationLabel: String? = nil, transactionCertificate: String? = nil,
        tvr: String? = nil, tsi: String? = nil, applicationPreferredName: String? = nil,
        accountType: AccountType? = nil
    ) {
        self.accountType = accountType
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.applicationPreferredName = applicationPreferredName
        self.transactionCertificate = transactionCertificate
        self.tvr = tvr
        self.tsi = tsi
    }
}

/// What a sale, refund or void produced.
public struct PaymentResult: Sendable, Hashable {
    /// How it ended.
    public var status: PaymentStatus
    /// What it was.
    public var kind: TransactionKind
    /// The amount asked for, minor units.
    public var requestedAmount: Int64
    /// The amount approved, minor units (0 unless approved).
    public var approvedAmount: Int64
    /// The currency.
    public var currency: Currency
    /// The gateway's transaction id, when the gateway recorded one.
    public var transactionID: TransactionID?
    /// The idempotency key the operation used (for support and reconciliation).
    public var idempotencyKey: IdempotencyKey
    /// The issuer's approval code.
    public var authorizationCode: String?
    /// The authorisation response code (EMV 8A), such as `"00"`.
    public var responseCode: String?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// The masked card number (first 6 / last 4).
    public var maskedPAN: String?
    /// The card scheme, such as `"visa"`.
    public var scheme: String?
    /// The EMV values for the receipt.
    public var emv: EMVReceiptSummary?
    /// Whether the PIN was verified.
    public var pinVerified: Bool
    /// Whether an approval was reversed because the card or the reader did not complete it.
    public var reversed: Bool
    /// Whether the outcome was recovered by looking the attempt up at the gateway after its
    /// answer was lost (or from the journal at start).
    public var recovered: Bool
    /// Why it did not succeed, when it did not.
    public var error: MPOSError?
    /// The acquirer's reason for a decline, when it gave one (a networked terminal's
    /// `refusalReason`, such as `210 Not enough balance`).
    public var refusalReason: String?
    /// Set when the outcome could not be written to the journal after retries (the payment
    /// stands as reported; see ``TerminalEvent/journalWriteFailed(_:)``).
    public var journalError: MPOSError?
    /// The merchant's name, for the receipt.
    public var merchantName: String?
    /// The basket the payment was for, if the app gave one: its lines and taxes go on the
    /// receipts.
    public var basket: Basket?
    /// When it happened.
    public var date: Date
    /// The stored id of a sale approved offline (``PaymentStatus/approvedOffline``).
    public var offlineID: UUID?
    /// The settlement batch the gateway put the transaction in (the ECP seed's `batch_id`);
    /// nil when the gateway recorded nothing (offline, unreachable, refused).
    public var batchID: String?
    /// The acquirer's own words about the outcome (the ECP seed's `acquirer_message`), such as
    /// `"Approved"` or `"insufficient funds"`. For people, not for logic: it may change
    /// without notice; decide on ``status``, ``responseCode`` and ``error``.
    public var acquirerMessage: String?
    /// The cardholder's name as the card carries it, when it carries one.
    public var cardholderName: String?
    /// The card's expiry month, 1–12.
    public var expiryMonth: Int?
    /// The card's expiry year, four digits.
    public var expiryYear: Int?
    /// The cardholder's signature from the reader's pad, on an approval the merchant signed
    /// off (``CardholderSignature/png()`` gives the image; the merchant copy prints it).
    public var signature: CardholderSignature?
    /// Whether the gateway stored ``signature`` with the transaction (see
    /// ``Receipts/storeSignature(_:transactionID:)``).
    public var signatureStored = false
    /// The tip the cardholder chose on the reader (``GatewayAPI/TipOptions``), minor units, on
    /// top of ``approvedAmount`` (Handpoint's `GratuityAmount`); 0 without one. Once approved
    /// it is the tip the gateway recorded.
    public var tipAmount: Int64 = 0
    /// The offered percentage the cardholder picked for ``tipAmount`` (Handpoint's
    /// `GratuityPercentage`); nil for a fixed or typed tip, or none.
    public var tipPercentage: Int?
    /// The amount and the tip together (Handpoint's `TotalAmount`): ``approvedAmount`` plus
    /// ``tipAmount`` once approved, else ``requestedAmount`` plus the tip chosen.
    public var totalAmount: Int64 {
        (status == .approved || status == .approvedOffline ? approvedAmount : requestedAmount) + tipAmount
    }

    /// Creates a result.
    public init(
        status: PaymentStatus, kind: TransactionKind, requestedAmount: Int64, approvedAmount: Int64,
        currency: Currency, transactionID: TransactionID? = nil, idempotencyKey: IdempotencyKey,
        authorizationCode: String? = nil, responseCode: String? = nil, cvm: CardholderVerification? = nil,
        entryMode: CardEntryMode? = nil, maskedPAN: String? = nil, scheme: String? = nil,
        emv: EMVReceiptSummary? = nil, pinVerified: Bool = false, reversed: Bool = false, recovered: Bool = false,
        error: MPOSError? = nil, merchantName: String? = nil, date: Date = Date(), basket: Basket? = nil,
        offlineID: UUID? = nil, batchID: String? = nil, acquirerMessage: String? = nil,
        cardholderName: String? = nil, expiryMonth: Int? = nil, expiryYear: Int? = nil,
        signature: CardholderSignature? = nil, tipAmount: Int64 = 0, tipPercentage: Int? = nil
    ) {
        self.tipAmount = tipAmount
        self.tipPercentage = tipPercentage
        self.offlineID = offlineID
        self.batchID = batchID
        self.acquirerMessage = acquirerMessage
        self.cardholderName = cardholderName
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.signature = signature
        self.status = status
        self.kind = kind
        self.requestedAmount = requestedAmount
        self.approvedAmount = approvedAmount
        self.currency = currency
        self.transactionID = transactionID
        self.idempotencyKey = idempotencyKey
        self.authorizationCode = authorizationCode
        self.responseCode = responseCode
        self.cvm = cvm
        self.entryMode = entryMode
        self.maskedPAN = maskedPAN
        self.scheme = scheme
        self.emv = emv
        self.pinVerified = pinVerified
        self.reversed = reversed
        self.recovered = recovered
        self.error = error
        self.merchantName = merchantName
        self.date = date
        self.basket = basket
    }

    /// What ``responseCode`` means (the ECP seed's `authorization_response_message`), such as
    /// `"INSUFFICIENT FUNDS"` for `"51"`; nil without a code or for a code of no known meaning.
    public var authorizationResponseMessage: String? {
        responseCode.flatMap(AuthorizationResponseCode.message(for:))
    }

    /// The customer's copy as plain text (``PaymentReceipt`` has HTML and other widths).
    public var customerReceipt: String { PaymentReceipt(self).text(.customer) }
    /// The merchant's copy as plain text, with the signature line when one is due.
    public var merchantReceipt: String { PaymentReceipt(self).text(.merchant) }
}

/// Amounts as receipts print them.
public enum Receipt {
    /// `12.34 EUR` from minor units.
    public static func format(_ amount: Int64, _ currency: Currency) -> String {
        let digits = currency.minorUnits ?? 0
        guard digits > 0 else { return "\(amount) \(currency.code)" }
        var divisor: Int64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let sign = amount < 0 ? "-" : ""
        let magnitude = amount.magnitude
        let whole = magnitude / UInt64(divisor)
        let fraction = String(magnitude % UInt64(divisor))
        return "\(sign)\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction) \(currency.code)"
    }
}
