import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        self.statementDescriptorSuffix = try c.decodeIfPresent(
            String.self, forKey: .statementDescriptorSuffix)
        self.duplicateCheck = try c.decodeIfPresent(Bool.self, forKey: .duplicateCheck) ?? true
        self.allowPartialApproval = try c.decodeIfPresent(Bool.self, forKey: .allowPartialApproval) ?? false
        self.captureMode = try c.decodeIfPresent(CaptureMode.self, forKey: .captureMode) ?? .completedSale
        self.installments = try c.decodeIfPresent(Installments.self, forKey: .installments)
        self.basket = try c.decodeIfPresent(Basket.self, forKey: .basket)
    }
}
