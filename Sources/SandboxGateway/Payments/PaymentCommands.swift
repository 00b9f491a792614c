import Foundation
import GatewayAPI
import MPOSCore

/// A card-present EMV payment as the routes hand it to ``PaymentService``.
public struct CardPaymentCommand: Sendable {
    /// `sale`, `authorization`, `preAuthorization` or `refund` (unreferenced).
    public var kind: TransactionKind
    /// The amount, minor units.
    public var amount: Int64
    /// The ISO 4217 alpha code.
    public var currency: String
    /// BER-TLV EMV data.
    public var emvData: [UInt8]
    /// The DUKPT-sealed card data.
    public var encryptedCardData: [UInt8]
    /// The KSN.
    public var ksn: [UInt8]
    /// The masked PAN the reader showed, if sent.
    public var maskedPAN: String?
    /// How the card was read.
    public var entryMode: CardEntryMode?
    /// How the cardholder was verified.
    public var cvm: CardholderVerification?
    /// The statement descriptor.
    public var descriptor: String?
    /// Its suffix.
    public var descriptorSuffix: String?
    /// The merchant's id for the payment.
    public var externalID: String?
    /// The merchant's customer reference.
    public var customerReference: String?
    /// Whether to refuse a repeat of a recent payment (default on).
    public var duplicateCheck: Bool
    /// Whether a partial approval may stand.
    public var allowPartialApproval: Bool
    /// How a sale is settled.
    public var captureMode: CaptureMode

    /// The basket as receipt lines, stored with the transaction; set after creating the command.
    public var basketLines: [ReceiptLine] = []

    /// Creates a command.
    public init(
        kind: TransactionKind, amount: Int64, currency: String, emvData: [UInt8], encryptedCardData: [UInt8],
        ksn: [UInt8], maskedPAN: String? = nil, entryMode: CardEntryMode? = .chip,
        cvm: CardholderVerification? = nil, descriptor: String? = nil,
        descriptorSuffix: String? = nil, externalID: String? = nil, customerReference: String? = nil,
        duplicateCheck: Bool = true, allowPartialApproval: Bool = false,
        captureMode: CaptureMode = .completedSale
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
        self.descriptor = descriptor
        self.descriptorSuffix = descriptorSuffix
        self.externalID = externalID
        self.customerReference = customerReference
        self.duplicateCheck = duplicateCheck
        self.allowPartialApproval = allowPartialApproval
        self.captureMode = captureMode
    }
}

/// A cash payment or cash refund.
public struct CashCommand: Sendable {
    /// `sale` or `refund`.
    public var kind: TransactionKind
    /// The amount, minor units.
    public var amount: Int64
    /// The currency code.
    public var currency: String
    /// The merchant's customer reference.
    public var customerReference: String?
    /// The merchant's id.
    public var externalID: String?

    /// The basket as receipt lines, stored with the transaction; set after creating the command.
    public var basketLines: [ReceiptLine] = []

    /// Creates a command.
    public init(
        kind: TransactionKind = .sale, amount: Int64, currency: String, customerReference: String? = nil,
        externalID: String? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.customerReference = customerReference
        self.externalID = externalID
    }
}

/// A SEPA direct debit authorised with the customer's card: the card identifies the bank
/// account and the mandate is signed on the terminal.
public struct SEPACommand: Sendable {
    /// The amount, minor units.
    public var amount: Int64
    /// The currency code (EUR).
    public var currency: String
    /// BER-TLV EMV data, if the chip was read.
    public var emvData: [UInt8]
    /// The DUKPT-sealed card data.
    public var encryptedCardData: [UInt8]
    /// The KSN.
    public var ksn: [UInt8]
    /// The masked PAN the reader showed.
    public var maskedPAN: String?
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// The mandate reference; generated when absent.
    public var mandateReference: String?
    /// The merchant's customer reference.
    public var customerReference: String?
    /// The merchant's id.
    public var externalID: String?

    /// The basket as receipt lines, stored with the transaction; set after creating the command.
    public var basketLines: [ReceiptLine] = []

    /// Creates a command.
    public init(
        amount: Int64, currency: String, emvData: [UInt8], encryptedCardData: [UInt8], ksn: [UInt8],
        maskedPAN: String? = nil, entryMode: CardEntryMode = .chip, mandateReference: String? = nil,
        customerReference: String? = nil, externalID: String? = nil
    ) {
        self.amount = amount
        self.currency = currency
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.maskedPAN = maskedPAN
        self.entryMode = entryMode
        self.mandateReference = mandateReference
        self.customerReference = customerReference
        self.externalID = externalID
    }
}
