import Foundation
import GatewayAPI
import MPOSCore

/// Which copy of a receipt.
public enum ReceiptCopy: String, Sendable, Hashable, CaseIterable {
    /// The cardholder's copy.
    case customer
    /// The merchant's copy; it carries the signature line when the cardholder signs.
    case merchant
}

/// Everything a card receipt shows, with the fields the card schemes require: merchant
/// name and address, date and time, transaction type, amount and currency, the masked card
/// number, scheme, entry mode (contact or contactless), AID, application label, cryptogram,
/// TVR and TSI, the cardholder verification, the approval code, transaction and batch ids
/// and the response.
///
/// Make one from a ``PaymentResult`` with ``PaymentTerminal/Receipts/receipt(for:)`` or from the
/// gateway with ``PaymentTerminal/Receipts/receipt(transactionID:)``, then render a copy with
/// ``text(_:)`` or ``html(_:)``. It never holds more of the card number than the masked
/// form (first six, last four).
public struct PaymentReceipt: Sendable, Hashable {
    /// The merchant's trading name.
    public var merchantName: String
    /// The merchant's postal address.
    public var merchantAddress: String?
    /// The merchant id (MID).
    public var merchantID: String?
    /// The terminal id (TID).
    public var terminalID: String?
    /// The gateway's receipt number.
    public var receiptNumber: Int?
    /// When the transaction happened.
    public var date: Date
    /// What it was.
    public var kind: TransactionKind
    /// How it ended.
    public var status: PaymentStatus
    /// The amount charged (or asked for, when not approved), minor units, tip included.
    public var amount: Int64
    /// The tip within ``amount``, minor units.
    public var tipAmount: Int64
    /// The currency.
    public var currency: Currency
    /// The masked card number.
    public var maskedPAN: String?
    /// The scheme, such as `"visa"`.
    public var scheme: String?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// The application identifier, hex.
    public var aid: String?
    /// The application label.
    public var applicationLabel: String?
    /// The application cryptogram (the TC of an approval), hex.
    public var cryptogram: String?
    /// Terminal verification results, hex.
    public var tvr: String?
    /// Transaction status information, hex.
    public var tsi: String?
    /// The account the cardholder chose at the reader, when it asked (printed as "Account").
    public var accountType: AccountType?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// Whether the merchant copy carries a signature line.
    public var signatureRequired: Bool
    /// The issuer's approval code.
    public var authorizationCode: String?
    /// The authorisation response code, such as `"00"`.
    public var responseCode: String?
    /// The gateway's transaction id.
    public var transactionID: TransactionID?
    /// The settlement batch.
    public var batchID: String?
    /// Whether an approval was reversed.
    public var reversed: Bool
    /// The basket's lines (items, service charge, gratuity); empty without a basket.
    public var lines: [ReceiptLine]
    /// The tax in ``lines`` per rate (prices include tax).
    public var taxes: [ReceiptTax]
    /// The cardholder's signature from the reader's pad: the merchant copy prints it under
    /// the signature line (ESC/POS raster); nil for a paper signature or none.
    public var signature: CardholderSignature?

    /// Creates a receipt from its fields.
    public init(
        merchantName: String, merchantAddress: String? = nil, merchantID: String? = nil,
        terminalID: String? = nil,
        receiptNumber: Int? = nil, date: Date, kind: TransactionKind, status: PaymentStatus, amount: Int64,
        tipAmount: Int64 = 0, currency: Currency, maskedPAN: String? = nil, scheme: String? = nil,
        entryMode: CardEntryMode? = nil, aid: String? = nil, applicationLabel: String? = nil,
        cryptogram: String? = nil,
        tvr: String? = nil, tsi: String? = nil, cvm: CardholderVerification? = nil,
        signatureRequired: Bool = false,
        authorizationCode: String? = nil, responseCode: String? = nil, transactionID: TransactionID? = nil,
        batchID: String? = nil, reversed: Bool = false, lines: [ReceiptLine] = [], taxes: [ReceiptTax]? = nil
    ) {
        self.merchantName = merchantName
        self.merchantAddress = merchantAddress
        self.merchantID = merchantID
        self.terminalID = terminalID
        self.receiptNumber = receiptNumber
        self.date = date
        self.kind = kind
        self.status = status
        self.amount = amount
        self.tipAmount = tipAmount
        self.currency = currency
        self.maskedPAN = maskedPAN.map(Self.masked)
        self.scheme = scheme
        self.entryMode = entryMode
        self.aid = aid
        self.applicationLabel = applicationLabel
        self.cryptogram = cryptogram
        self.tvr = tvr
        self.tsi = tsi
        self.cvm = cvm
        self.signatureRequired = signatureRequired
        self.authorizationCode = authorizationCode
        self.responseCode = responseCode
        self.transactionID = transactionID
        self.batchID = batchID
        self.reversed = reversed
        self.lines = lines
        self.taxes = taxes ?? ReceiptTax.summary(of: lines)
    }

    /// The receipt of a payment this terminal ran, with the merchant's details when known.
    public init(_ result: PaymentResult, merchant: MerchantInfo? = nil) {
        let approved = result.status == .approved
        self.init(
            merchantName: merchant?.name ?? result.merchantName ?? "", merchantAddress: merchant?.address,
            merchantID: merchant?.id, date: result.date, kind: result.kind, status: result.status,
            amount: (approved ? result.approvedAmount : result.requestedAmount) + result.tipAmount,
            tipAmount: result.tipAmount, currency: result.currency,
            maskedPAN: result.maskedPAN, scheme: result.scheme, entryMode: result.entryMode,
            aid: result.emv?.aid,
            applicationLabel: result.emv?.applicationLabel, cryptogram: result.emv?.transactionCertificate,
            tvr: result.emv?.tvr, tsi: result.emv?.tsi, cvm: result.cvm,
            signatureRequired: approved && (result.cvm == .signature || result.cvm == .pinAndSignature),
            authorizationCode: approved ? result.authorizationCode : nil, responseCode: result.responseCode,
            transactionID: result.transactionID, reversed: result.reversed,
            lines: result.basket.map(ReceiptLine.lines(for:)) ?? [])
        if result.pinVerified, cvm == nil { cvm = .pin }
        signature = result.signature
        accountType = result.emv?.accountType
    }

    /// The receipt of a recorded transaction: the gateway's receipt data, completed with
    /// the transaction's batch and response code when given.
    public init(_ data: ReceiptData, transaction: Transaction? = nil) {
        self.init(
            merchantName: data.merchantName, merchantAddress: data.merchantAddress,
            merchantID: data.merchantID,
            terminalID: data.terminalID, receiptNumber: data.receiptNumber, date: data.date, kind: data.kind,
            status: data.status.paymentStatus,
            amount: data.status.paymentStatus == .approved
                ? data.totalAmount : (transaction?.requestedAmount ?? data.totalAmount),
            tipAmount: data.tipAmount, currency: data.currency, maskedPAN: data.card?.maskedPAN,
            scheme: data.card?.scheme, entryMode: data.entryMode, aid: data.emv?.aid,
            applicationLabel: data.emv?.applicationLabel, cryptogram: data.emv?.applicationCryptogram,
            tvr: data.emv?.tvr, tsi: data.emv?.tsi, cvm: data.cvm, signatureRequired: data.signatureRequired,
            authorizationCode: data.authorizationCode, responseCode: transaction?.responseCode,
            transactionID: data.transactionID, batchID: transaction?.batchID,
            reversed: data.status == .reversed, lines: data.lines, taxes: data.taxes)
    }

    /// Keeps at most the first six and last four digits of whatever it is given: a full
    /// number passed by mistake is masked here rather than printed.
    static func masked(_ pan: String) -> String {
        let count = pan.count(where: { $0.isASCII && $0.isNumber })
        guard count > 10 else { return pan }
        var index = 0
        return String(
            pan.map { character -> Character in
                guard character.isASCII && character.isNumber else { return character }
                defer { index += 1 }
                return index < 6 || index >= count - 4 ? character : "*"
            })
    }
}

extension FinancialStatus {
    /// The app's view of a recorded outcome.
    var paymentStatus: PaymentStatus {
        switch self {
        case .approved, .partiallyApproved, .processed, .refunded: .approved
        case .declined, .reversed: .declined
        case .cancelled: .cancelled
        case .failed: .failed
        // Only a refund the gateway received and decides later is recorded pending.
        case .pending: .pending
        }
    }
}
