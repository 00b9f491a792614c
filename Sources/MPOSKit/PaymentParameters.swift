import GatewayAPI
import MPOSCore

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
    /// `< > " '`.
    public var statementDescriptor: String?
    /// Refuse a payment that repeats a recent one (default `true`).
    public var duplicateCheck: Bool
    /// Accept an approval for less than the amount (default `false`).
    public var allowPartialApproval: Bool
    /// When a sale's money is captured (default ``CaptureMode/completedSale``);
    /// ``CaptureMode/tipAdjustment`` lets ``PaymentTerminal/adjustTip(transactionID:tipAmount:)``
    /// set the tip until the batch closes. Ignored by the other operations.
    public var captureMode: CaptureMode

    /// Creates parameters; see the properties for the rules and defaults.
    public init(
        amount: Int64, currency: Currency, cardholderPresent: Bool = true, customerReference: String? = nil,
        externalID: String? = nil, statementDescriptor: String? = nil, duplicateCheck: Bool = true,
        allowPartialApproval: Bool = false, captureMode: CaptureMode = .completedSale
    ) {
        self.amount = amount
        self.currency = currency
        self.cardholderPresent = cardholderPresent
        self.customerReference = customerReference
        self.externalID = externalID
        self.statementDescriptor = statementDescriptor
        self.duplicateCheck = duplicateCheck
        self.allowPartialApproval = allowPartialApproval
        self.captureMode = captureMode
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

    /// Checks every rule, in the order of the properties.
    ///
    /// - Throws: ``MPOSError/amountNotPositive``, ``MPOSError/currencyHasNoMinorUnits``,
    ///   ``MPOSError/externalIDTooLong``, ``MPOSError/invalidStatementDescriptor`` (its
    ///   message says which rule; it never echoes the text).
    public func validate() throws(MPOSError) {
        _ = try money
        if let externalID, externalID.count > GatewayValidation.externalIDMaximumLength {
            throw MPOSError.externalIDTooLong.withMessage(
                "The external id has \(externalID.count) characters; at most 50 are allowed.")
        }
        if let descriptor = statementDescriptor {
            if descriptor.isEmpty || descriptor.count > GatewayValidation.statementDescriptorMaximumLength {
                throw MPOSError.invalidStatementDescriptor.withMessage(
                    "The statement descriptor has \(descriptor.count) characters; 1 to 22 are allowed.")
            }
            if !descriptor.contains(where: \.isLetter) {
                throw MPOSError.invalidStatementDescriptor.withMessage(
                    "The statement descriptor needs at least one letter.")
            }
            if descriptor.contains(where: GatewayValidation.forbiddenDescriptorCharacters.contains) {
                throw MPOSError.invalidStatementDescriptor.withMessage(
                    "The statement descriptor contains one of < > \" '.")
            }
        }
    }
}
