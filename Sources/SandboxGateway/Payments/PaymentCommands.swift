import Foundation
import MPOSCore

/// How a sale is settled, per the ECP `capture` parameter.
public enum CaptureMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Authorise and capture at once (the default).
    case completedSale = "completed_sale"
    /// Authorise only; the capture route adds it to a batch later.
    case authUntilCapture = "auth_until_capture"
    /// Authorise and capture, and allow tip adjustment until the batch closes.
    case tipAdjustment = "tip_adjustment"
}

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

    /// Creates a command.
    public init(
        kind: TransactionKind, amount: Int64, currency: String, emvData: [UInt8], encryptedCardData: [UInt8],
        ksn: [UInt8], maskedPAN: String? = nil, entryMode: CardEntryMode? = .chip, cvm: CardholderVerification? = nil, descriptor: String? = nil,
        descriptorSuffix: String? = nil, externalID: String? = nil, customerReference: String? = nil,
        duplicateCheck: Bool = true, allowPartialApproval: Bool = false, captureMode: CaptureMode = .completedSale
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

/// A cash payment.
public struct CashCommand: Sendable {
    /// The amount, minor units.
    public var amount: Int64
    /// The currency code.
    public var currency: String
    /// Cash handed over, when known.
    public var amountTendered: Int64?
    /// Free text.
    public var note: String?
    /// The merchant's id.
    public var externalID: String?

    /// Creates a command.
    public init(amount: Int64, currency: String, amountTendered: Int64? = nil, note: String? = nil, externalID: String? = nil) {
        self.amount = amount
        self.currency = currency
        self.amountTendered = amountTendered
        self.note = note
        self.externalID = externalID
    }
}

/// A SEPA direct debit.
public struct SEPACommand: Sendable {
    /// The amount, minor units.
    public var amount: Int64
    /// The currency code (EUR).
    public var currency: String
    /// The IBAN; only a masked form and a fingerprint are kept.
    public var iban: String
    /// The BIC.
    public var bic: String?
    /// The account holder.
    public var accountHolder: String
    /// The mandate reference; generated when absent.
    public var mandateReference: String?
    /// The merchant's id.
    public var externalID: String?

    /// Creates a command.
    public init(
        amount: Int64, currency: String, iban: String, bic: String? = nil, accountHolder: String,
        mandateReference: String? = nil, externalID: String? = nil
    ) {
        self.amount = amount
        self.currency = currency
        self.iban = iban
        self.bic = bic
        self.accountHolder = accountHolder
        self.mandateReference = mandateReference
        self.externalID = externalID
    }
}

/// IBAN checks (ISO 13616 mod-97) and masking.
public enum IBAN {
    /// The IBAN without spaces in upper case if its check digits are right; `nil` otherwise.
    public static func normalized(_ text: String) -> String? {
        let compact = text.uppercased().filter { $0 != " " }
        guard (15...34).contains(compact.count), compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            compact.prefix(2).allSatisfy(\.isLetter), compact.dropFirst(2).prefix(2).allSatisfy(\.isNumber)
        else { return nil }
        let rearranged = compact.dropFirst(4) + compact.prefix(4)
        var remainder = 0
        for character in rearranged {
            let value = character.isNumber ? Int(String(character))! : Int(character.asciiValue! - 55)
            remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97
        }
        return remainder == 1 ? compact : nil
    }

    /// Country code and check digits, then stars, then the last four characters.
    public static func masked(_ normalized: String) -> String {
        String(normalized.prefix(4)) + String(repeating: "*", count: max(0, normalized.count - 8))
            + String(normalized.suffix(4))
    }
}
