import EMV
import GatewayAPI
import MPOSCore
import ReaderLink

/// What the app asks a sale for: the gateway API's ``GatewayAPI/PaymentParameters``, the one
/// declaration of the payment fields, so that `import MPOSKit` alone is enough to write
/// `PaymentParameters(amount: 1234, currency: .eur)`. The terminal checks them with
/// `validate()` before any I/O.
public typealias PaymentParameters = GatewayAPI.PaymentParameters

extension PaymentParameters {
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
    ///   ``MPOSError/invalidInstallments``, ``MPOSError/invalidBasket`` or
    ///   ``MPOSError/invalidArgument`` (a bad ``GatewayAPI/PaymentParameters/callbackURL``) or
    ///   ``MPOSError/invalidTipOptions`` (``GatewayAPI/TipOptions``); the message says which rule
    ///   and never echoes the text.
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
        if let callbackURL, let problem = GatewayValidation.callbackURLProblem(callbackURL) {
            throw MPOSError.invalidArgument.withMessage("Invalid callback URL: \(problem).")
        }
        if let tipOptions {
            if let problem = GatewayValidation.tipOptionsProblem(tipOptions, amount: amount) {
                throw MPOSError.invalidTipOptions.withMessage("Invalid tip options: \(problem).")
            }
            if captureMode == .authUntilCapture {
                throw MPOSError.invalidTipOptions.withMessage(
                    "A tip is taken with a sale captured at once, not with captureMode authUntilCapture.")
            }
        }
    }
}

extension PaymentParameters {
    /// The gateway request for a card the reader read under these parameters, for card
    /// payments and (through ``AuthorizeCardRequest/sepaPaymentRequest(mandateReference:)``) SEPA.
    /// `reader` names the reader that read it, for the gateway's update deadlines.
    /// `tip` is what the cardholder chose on the reader (sent only when above zero).
    func authorizeCardRequest(
        kind: CardPaymentKind, card: AuthorizationRequest, reader: PaymentReader? = nil, tip: Int64 = 0
    ) -> AuthorizeCardRequest {
        AuthorizeCardRequest(
            kind: kind, parameters: self, emvData: Hex.encode(card.emvData),
            encryptedCardData: Hex.encode(card.encryptedCardData), ksn: Hex.encode(card.ksn),
            maskedPAN: card.maskedPAN, entryMode: card.entryMode, cvm: card.cvm, reader: reader,
            tipAmount: tip > 0 ? tip : nil)
    }
}

extension AuthorizeCardRequest {
    /// The SEPA direct debit for the same card read and parameters: the card identifies the
    /// account, so the request carries the card fields and the order, not the card-payment flags.
    func sepaPaymentRequest(mandateReference: String?) -> SEPAPaymentRequest {
        SEPAPaymentRequest(
            amount: parameters.amount, currency: parameters.currency, encryptedCardData: encryptedCardData,
            ksn: ksn, emvData: emvData, maskedPAN: maskedPAN, entryMode: entryMode,
            mandateReference: mandateReference, customerReference: parameters.customerReference,
            externalID: parameters.externalID, basket: parameters.basket, reader: reader)
    }
}
