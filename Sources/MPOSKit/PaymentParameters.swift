import EMV
import GatewayAPI
import MPOSCore
import ReaderLink

/// What the app asks a sale for. Checked by ``validate()`` before any I/O.
public struct PaymentParameters: Sendable, Hashable {
    /// The amount in minor units, greater than zero.
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
    /// ``CaptureMode/tipAdjustment`` lets ``PaymentTerminal/adjustTip(transactionID:tipAmount:)``
    /// set the tip until the batch closes. Ignored by the other operations.
    public var captureMode: CaptureMode
    /// An instalment plan (2...99 instalments, 1...12 months apart), where the issuer offers one.
    public var installments: Installments?
    /// What was sold: lines with their tax rate in basis points (700 is 7 %), gratuity,
    /// service charge and where the sale took place. The lines, gratuity and service charge
    /// must add up to ``amount``.
    public var basket: Basket?

    /// Creates parameters; see the properties for the rules and defaults.
    public init(
        amount: Int64, currency: Currency, cardholderPresent: Bool = true, customerReference: String? = nil,
        externalID: String? = nil, statementDescriptor: String? = nil,
        statementDescriptorSuffix: String? = nil,
        duplicateCheck: Bool = true, allowPartialApproval: Bool = false,
        captureMode: CaptureMode = .completedSale,
        installments: Installments? = nil, basket: Basket? = nil
    ) {
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

    /// The amount as ``Money``.
    ///
    /// - Throws: what ``validate()`` throws for the amount and currency.
    public var money: Money {
        get throws(MPOSError) {
            guard amount > 0 else { throw MPOSError.amountNotPositive }
            return try Money(amount: amount, currency: currency)
        }
    }

    /// Checks every rule, in the order of the properties, with the gateway's own rules
    /// (``GatewayAPI/GatewayValidation``).
    ///
    /// - Throws: ``MPOSError/amountNotPositive``, ``MPOSError/currencyHasNoMinorUnits``,
    ///   ``MPOSError/externalIDTooLong``, ``MPOSError/invalidStatementDescriptor``,
    ///   ``MPOSError/invalidInstallments`` or ``MPOSError/invalidBasket``; the message says
    ///   which rule and never echoes the text.
    public func validate() throws(MPOSError) {
        _ = try money
        if let externalID, externalID.count > GatewayValidation.externalIDMaximumLength {
            throw MPOSError.externalIDTooLong.withMessage(
                "The external id has \(externalID.count) characters; at most 50 are allowed.")
        }
        if let problem = GatewayValidation.statementDescriptorProblem(
            statementDescriptor, suffix: statementDescriptorSuffix)
        {
            throw MPOSError.invalidStatementDescriptor.withMessage(
                "Invalid statement descriptor: \(problem).")
        }
        if let installments, let problem = GatewayValidation.installmentsProblem(installments) {
            throw MPOSError.invalidInstallments.withMessage("Invalid instalment plan: \(problem).")
        }
        if let basket, let problem = GatewayValidation.basketProblem(basket, amount: amount) {
            throw MPOSError.invalidBasket.withMessage("Invalid basket: \(problem).")
        }
    }
}

extension PaymentParameters {
    /// The gateway request for a card the reader read under these parameters: the one place
    /// where the SDK's payment fields become the gateway API's, for card payments and SEPA.
    func authorizeCardRequest(kind: CardPaymentKind, card: AuthorizationRequest) -> AuthorizeCardRequest {
        AuthorizeCardRequest(
            kind: kind, amount: amount, currency: currency, emvData: Hex.encode(card.emvData),
            encryptedCardData: Hex.encode(card.encryptedCardData), ksn: Hex.encode(card.ksn),
            maskedPAN: card.maskedPAN, entryMode: card.entryMode, cvm: card.cvm,
            cardholderPresent: cardholderPresent, customerReference: customerReference,
            externalID: externalID,
            statementDescriptor: statementDescriptor, statementDescriptorSuffix: statementDescriptorSuffix,
            duplicateCheck: duplicateCheck, allowPartialApproval: allowPartialApproval,
            captureMode: captureMode,
            installments: installments, basket: basket)
    }
}

extension AuthorizeCardRequest {
    /// The SEPA direct debit for the same card read and parameters: the card identifies the
    /// account, so the request carries the card fields and the order, not the card-payment flags.
    func sepaPaymentRequest(mandateReference: String?) -> SEPAPaymentRequest {
        SEPAPaymentRequest(
            amount: amount, currency: currency, encryptedCardData: encryptedCardData, ksn: ksn,
            emvData: emvData,
            maskedPAN: maskedPAN, entryMode: entryMode, mandateReference: mandateReference,
            customerReference: customerReference, externalID: externalID, basket: basket)
    }
}
