import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The payment details of a card payment: what the app asks a sale for and what
/// ``AuthorizeCardRequest`` carries to the gateway, declared once for both.
///
/// On the wire the fields stand in the request's own JSON object, beside the card fields
/// (`{"amount":1234,"currency":"EUR","cvm":"pin",…}`), not nested under a key. Omitted or
/// `null` flags take their defaults when decoded. The SDK checks the rules before any I/O
/// (`validate()` in MPOSKit); the gateway checks them again (``GatewayValidation``).
///
/// ```swift
/// let parameters = PaymentParameters(amount: 1234, currency: .eur, externalID: "order-17")
/// ```
public struct PaymentParameters: Codable, Sendable, Hashable {
    /// The amount in minor units, greater than zero, tip and charges included.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// Whether the cardholder is present (default `true`).
    public var cardholderPresent: Bool
    /// The merchant's reference for the customer or order.
    public var customerReference: String?
    /// The merchant's unique id for the payment, at most 50 characters.
    public var externalID: String?
    /// Text on the cardholder's statement: 1...22 characters, at least one letter, none of
    /// `< > " '`, counted after non-ASCII characters are stripped and spaces at either end
    /// trimmed (the gateway stores that text, upper case).
    public var statementDescriptor: String?
    /// Details after the descriptor, shown as `DESCRIPTOR* SUFFIX`: none of `< > " '`, and
    /// the whole at most 22 characters. Needs a ``statementDescriptor``.
    public var statementDescriptorSuffix: String?
    /// Refuse a payment that repeats a recent one (default `true`).
    public var duplicateCheck: Bool
    /// Accept an approval for less than the amount (default `false`).
    public var allowPartialApproval: Bool
    /// When a sale's money is captured (default ``CaptureMode/completedSale``);
    /// ``CaptureMode/tipAdjustment`` lets a tip be set (``GatewayPaths/tipAdjust``) until the
    /// batch closes. Ignored by the other operations.
    public var captureMode: CaptureMode
    /// An instalment plan (2...99 instalments, 1...12 months apart), where the issuer offers one.
    public var installments: Installments?
    /// What was sold: lines with their tax rate in basis points (700 is 7 %), gratuity,
    /// service charge and where the sale took place. The lines, gratuity and service charge
    /// must add up to ``amount``.
    public var basket: Basket?
    /// When the gateway cannot be reached, let the card decide offline and store an approved
    /// sale to forward later (default `false`). An SDK setting, never sent to the gateway.
    public var offlineAllowed: Bool = false
    /// Where the gateway posts the payment's outcome once it is recorded (the Accept callback's
    /// fields, signed as the merchant's webhooks are, retried as they are): an https URL, or
    /// http to a loopback host; see ``GatewayValidation/callbackURLProblem(_:)``.
    public var callbackURL: String?
    /// The tip the reader offers the cardholder (``TipOptions``): presets and whether a
    /// custom tip may be typed. An SDK setting, never sent to the gateway as such: the
    /// request carries the chosen tip (``AuthorizeCardRequest/tipAmount``). nil: no tip prompt.
    public var tipOptions: TipOptions?

    /// Creates parameters; see the properties for the rules and defaults.
    public init(
        amount: Int64, currency: Currency, cardholderPresent: Bool = true, customerReference: String? = nil,
        externalID: String? = nil, statementDescriptor: String? = nil,
        statementDescriptorSuffix: String? = nil,
        duplicateCheck: Bool = true, allowPartialApproval: Bool = false,
        captureMode: CaptureMode = .completedSale,
        installments: Installments? = nil, basket: Basket? = nil, offlineAllowed: Bool = false,
        callbackURL: String? = nil, tipOptions: TipOptions? = nil
    ) {
        self.tipOptions = tipOptions
        self.offlineAllowed = offlineAllowed
        self.callbackURL = callbackURL
        self.amount = amount
        self.currency = currency
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
        case amount, currency, cardholderPresent, customerReference, externalID, statementDescriptor
        case statementDescriptorSuffix, duplicateCheck, allowPartialApproval, captureMode
        case installments, basket, callbackURL
    }

    /// Decodes the parameters from a JSON object (which may hold other keys as well), filling
    /// in the defaults of omitted or `null` flags.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.amount = try c.decode(Int64.self, forKey: .amount)
        self.currency = try c.decode(Currency.self, forKey: .currency)
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
        self.callbackURL = try c.decodeIfPresent(String.self, forKey: .callbackURL)
    }
}
