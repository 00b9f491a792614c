import Foundation
import GatewayAPI
import MPOSCore

/// The gateway's payment rules as pure functions: input validation, the duplicate check and
/// the limits on captures, refunds, tips, voids and partial approvals.
///
/// Nothing here touches the database or the clock; callers pass in what the rule needs, so
/// every rule is unit-tested on its own and the routes stay thin.
public enum PaymentRules {
    /// The longest external id.
    public static let externalIDMaximumLength = 50
    /// The largest amount the sandbox accepts in minor units (EMV 9F02 holds 12 digits).
    public static let maximumAmount: Int64 = 999_999_999_999
    /// How far back the duplicate check looks.
    public static let duplicateWindow: TimeInterval = 5 * 60

    // MARK: Input

    /// Checks that a requested amount is positive and fits EMV's 12 digits.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidAmount``.
    public static func validateAmount(_ amount: Int64, field: String = "amount") throws(PaymentRuleViolation)
    {
        guard amount > 0 else {
            throw PaymentRuleViolation(.invalidAmount, "\(field) must be greater than zero, got \(amount).")
        }
        guard amount <= maximumAmount else {
            throw PaymentRuleViolation(
                .invalidAmount, "\(field) must be at most \(maximumAmount) minor units.")
        }
    }

    /// Looks up a currency by its ISO 4217 alpha code; only currencies with minor units carry money.
    /// - Throws: ``PaymentRuleViolation/Reason/unknownCurrency``.
    public static func currency(code: String) throws(PaymentRuleViolation) -> Currency {
        guard let currency = Currency(code: code), currency.minorUnits != nil, !currency.isFund else {
            throw PaymentRuleViolation(.unknownCurrency, "\"\(code.prefix(8))\" is not a known currency.")
        }
        return currency
    }

    /// The statement descriptor the cardholder sees, built from a descriptor and an optional
    /// suffix by ``GatewayValidation/statementDescriptor(_:suffix:)`` after the ECP rules of
    /// ``GatewayValidation/statementDescriptorProblem(_:suffix:)``: non-ASCII characters are
    /// stripped and spaces trimmed, the result holds at least one letter and none of
    /// `< > " '` or control characters, is upper case, and a suffix is joined as `"DESCRIPTOR* SUFFIX"`; the
    /// complete text is at most 22 characters. The SDK checks the same function before any
    /// I/O, so what it accepts the gateway stores.
    ///
    /// - Returns: `nil` when no descriptor is given.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidDescriptor``.
    public static func statementDescriptor(_ descriptor: String?, suffix: String?)
        throws(PaymentRuleViolation)
        -> String?
    {
        if let problem = GatewayValidation.statementDescriptorProblem(descriptor, suffix: suffix) {
            throw PaymentRuleViolation(.invalidDescriptor, problem + ".")
        }
        return GatewayValidation.statementDescriptor(descriptor, suffix: suffix)
    }

    /// Checks an optional external id: 1 to 50 characters.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidExternalID``.
    /// Checks a cash payment's cardholder name: 1 to 45 characters, none a control character.
    public static func validateCardholderName(_ name: String?) throws(PaymentRuleViolation) {
        guard let name else { return }
        guard CashPaymentRequest.isValidCardholderName(name) else {
            throw PaymentRuleViolation(
                .invalidField,
                "cardholderName must be 1 to \(CashPaymentRequest.cardholderNameMaximumLength) characters without control characters.")
        }
    }

    public static func validateExternalID(_ id: String?) throws(PaymentRuleViolation) {
        guard let id else { return }
        guard !id.isEmpty, id.unicodeScalars.count <= externalIDMaximumLength else {
            throw PaymentRuleViolation(
                .invalidExternalID,
                "external id must be 1 to \(externalIDMaximumLength) characters, got \(id.unicodeScalars.count)."
            )
        }
    }

    /// Checks an optional callback URL with the contract's rule
    /// (``GatewayValidation/callbackURLProblem(_:)``).
    /// - Throws: ``PaymentRuleViolation/Reason/invalidField``.
    public static func callbackURL(_ text: String?) throws(PaymentRuleViolation) -> URL? {
        guard let text else { return nil }
        if let problem = GatewayValidation.callbackURLProblem(text) {
            throw PaymentRuleViolation(.invalidField, problem + ".")
        }
        return URL(string: text)
    }

    /// Checks the tip the cardholder chose on the reader for a card payment of `amount`
    /// recorded as `kind`: none (`nil`), or zero or more with the total within
    /// ``maximumAmount``, on a sale captured at once (`completedSale` or `tipAdjustment`), whose
    /// tip is captured and refunded with it.
    /// - Returns: the tip, 0 without one.
    /// - Throws: ``PaymentRuleViolation/Reason/invalidAmount`` or, for another kind,
    ///   ``PaymentRuleViolation/Reason/invalidField``.
    public static func readerTip(_ tip: Int64?, amount: Int64, kind: TransactionKind) throws(PaymentRuleViolation)
        -> Int64
    {
        guard let tip else { return 0 }
        if let problem = GatewayValidation.tipProblem(tip, amount: amount) {
            throw PaymentRuleViolation(.invalidAmount, problem + ".")
        }
        guard kind == .sale else {
            throw PaymentRuleViolation(
                .invalidField, "Only a sale captured at once takes a tipAmount, not a \(kind.rawValue).")
        }
        return tip
    }

    // MARK: Duplicate check

    /// One earlier payment, as much of it as the duplicate check needs.
    public struct RecentPayment: Sendable, Hashable {
        /// The keyed card fingerprint, never the card number.
        public var cardFingerprint: String
        /// The requested amount in minor units.
        public var amount: Int64
        /// The ISO alpha code.
        public var currency: String
        /// When the gateway recorded it.
        public var createdAt: Date
        /// Its outcome; only approved payments count as duplicates.
        public var status: FinancialStatus

        /// Creates a record.
        public init(
            cardFingerprint: String, amount: Int64, currency: String, createdAt: Date, status: FinancialStatus
        ) {
            self.cardFingerprint = cardFingerprint
            self.amount = amount
            self.currency = currency
            self.createdAt = createdAt
            self.status = status
        }
    }

    /// Refuses a payment when the same card paid the same amount in the same currency within
    /// the last five minutes and was approved, unless the merchant disabled the check.
    /// - Throws: ``PaymentRuleViolation/Reason/duplicateTransaction``.
    public static func checkDuplicate(
        fingerprint: String, amount: Int64, currency: String, now: Date, enabled: Bool,
        recent: some Sequence<RecentPayment>
    ) throws(PaymentRuleViolation) {
        guard enabled else { return }
        let since = now.addingTimeInterval(-duplicateWindow)
        for payment in recent
        where payment.cardFingerprint == fingerprint && payment.amount == amount
            && payment.currency == currency && payment.createdAt >= since && payment.createdAt <= now
            && (payment.status == .approved || payment.status == .partiallyApproved)
        {
            throw PaymentRuleViolation(
                .duplicateTransaction,
                "The same card paid the same amount within the last 5 minutes; send "
                    + "\"duplicateCheck\": false to charge it again.")
        }
    }

    // MARK: Follow-up operations

    /// What a follow-up rule needs to know about the original transaction.
    public struct Original: Sendable, Hashable {
        /// What the original did.
        public var kind: TransactionKind
        /// Its current status.
        public var status: FinancialStatus
        /// The amount the issuer approved, in minor units.
        public var approvedAmount: Int64
        /// How much has been captured so far.
        public var capturedAmount: Int64
        /// How much has been refunded so far.
        public var refundedAmount: Int64
        /// Whether its settlement batch is still open.
        public var batchOpen: Bool
        /// Whether the sale was taken with tip adjustment allowed.
        public var tipAdjustable: Bool
        /// The tip on it (chosen on the reader or adjusted since), minor units: captured with
        /// the sale, so refundable with it.
        public var tipAmount: Int64 = 0
        /// When it was made (nil: not known, and no void window applies).
        public var createdAt: Date?

        /// Creates a summary.
        public init(
            kind: TransactionKind, status: FinancialStatus, approvedAmount: Int64, capturedAmount: Int64,
            refundedAmount: Int64, batchOpen: Bool, tipAdjustable: Bool = true
        ) {
            self.kind = kind
            self.status = status
            self.approvedAmount = approvedAmount
            self.capturedAmount = capturedAmount
            self.refundedAmount = refundedAmount
            self.batchOpen = batchOpen
            self.tipAdjustable = tipAdjustable
        }

        var isApproved: Bool { status == .approved || status == .partiallyApproved }
    }

    /// The amount to capture: the whole authorised amount when `requested` is `nil`, or a
    /// partial amount up to it. Only an approved, not yet captured (pre-)authorisation can be
    /// captured, and only once.
    /// - Throws: ``PaymentRuleViolation/Reason/notCapturable``,
    ///   ``PaymentRuleViolation/Reason/captureExceedsAuthorized`` or an invalid amount.
    public static func captureAmount(original: Original, requested: Int64?) throws(PaymentRuleViolation)
        -> Int64
    {
        guard original.kind == .authorization || original.kind == .preAuthorization else {
            throw PaymentRuleViolation(
                .notCapturable, "Only authorizations and pre-authorizations can be captured.")
        }
        guard original.isApproved else {
            throw PaymentRuleViolation(.notCapturable, "The authorization is \(original.status.rawValue).")
        }
        guard original.capturedAmount == 0 else {
            throw PaymentRuleViolation(.notCapturable, "The authorization has already been captured.")
        }
        guard let requested else { return original.approvedAmount }
        try validateAmount(requested)
        guard requested <= original.approvedAmount else {
            throw PaymentRuleViolation(
                .captureExceedsAuthorized,
                "Cannot capture \(requested): only \(original.approvedAmount) was authorized.")
        }
        return requested
    }

    /// The amount to refund: what remains (captured plus tip, minus refunded) when `requested`
    /// is `nil`, or a partial amount up to that.
    /// - Throws: ``PaymentRuleViolation/Reason/notRefundable``,
    ///   ``PaymentRuleViolation/Reason/refundExceedsCaptured`` or an invalid amount.
    public static func refundAmount(original: Original, requested: Int64?) throws(PaymentRuleViolation)
        -> Int64
    {
        guard [.sale, .authorization, .preAuthorization].contains(original.kind) else {
            throw PaymentRuleViolation(.notRefundable, "A \(original.kind.rawValue) cannot be refunded.")
        }
        guard original.isApproved || original.status == .refunded else {
            throw PaymentRuleViolation(.notRefundable, "The transaction is \(original.status.rawValue).")
        }
        let captured = original.capturedAmount + (original.capturedAmount > 0 ? original.tipAmount : 0)
        let remaining = captured - original.refundedAmount
        guard remaining > 0 else {
            throw PaymentRuleViolation(
                .refundExceedsCaptured,
                original.capturedAmount == 0
                    ? "Nothing has been captured yet; void or reverse the authorization instead."
                    : "The transaction has been refunded in full.")
        }
        guard let requested else { return remaining }
        try validateAmount(requested)
        guard requested <= remaining else {
            throw PaymentRuleViolation(
                .refundExceedsCaptured, "Cannot refund \(requested): only \(remaining) remains refundable.")
        }
        return requested
    }

    /// Checks that a tip may be set on the original: an approved sale or capture taken with
    /// tip adjustment, whose batch is still open, and a tip from zero to ``maximumAmount``.
    /// - Throws: ``PaymentRuleViolation/Reason/tipAdjustmentClosed`` or an invalid amount.
    public static func checkTipAdjustment(original: Original, tip: Int64) throws(PaymentRuleViolation) {
        guard tip >= 0 else {
            throw PaymentRuleViolation(.invalidAmount, "tipAmount must be zero or more, got \(tip).")
        }
        guard tip <= maximumAmount else {
            throw PaymentRuleViolation(
                .invalidAmount, "tipAmount must be at most \(maximumAmount) minor units, got \(tip).")
        }
        guard [.sale, .authorization, .preAuthorization].contains(original.kind), original.isApproved else {
            throw PaymentRuleViolation(.tipAdjustmentClosed, "Only an approved sale can take a tip.")
        }
        guard original.tipAdjustable else {
            throw PaymentRuleViolation(
                .tipAdjustmentClosed, "The sale was not taken with \"capture\": \"tip_adjustment\".")
        }
        guard original.batchOpen else {
            throw PaymentRuleViolation(
                .tipAdjustmentClosed, "The batch has closed; the tip can no longer change.")
        }
    }

    /// What undoing a transaction makes: a void of a sale or an authorisation, or of a refund.
    /// Sales, (pre-)authorisations, cash and refunds can be voided (or reversed) while approved;
    /// a void needs the batch still open and the transaction's own day (UTC) at `now`, so never
    /// after 24 hours: the Heft seed's "only within the same day" and the Accept seed's 24-hour
    /// reversal window. A reversal (the terminal undoing an approval its card never completed)
    /// has no window.
    /// - Parameter reversal: `true` for a reversal (issuer-side undo), `false` for a void.
    /// - Returns: ``TransactionKind/saleVoid`` or ``TransactionKind/refundVoid``.
    /// - Throws: ``PaymentRuleViolation/Reason/notVoidable``.
    public static func voidKind(original: Original, reversal: Bool, now: Date? = nil) throws(PaymentRuleViolation)
        -> TransactionKind
    {
        let kind: TransactionKind
        switch original.kind {
        case .sale, .authorization, .preAuthorization, .cash: kind = .saleVoid
        case .refund: kind = .refundVoid
        default:
            throw PaymentRuleViolation(.notVoidable, "A \(original.kind.rawValue) cannot be voided.")
        }
        guard original.isApproved else {
            throw PaymentRuleViolation(.notVoidable, "The transaction is \(original.status.rawValue).")
        }
        guard original.refundedAmount == 0 else {
            throw PaymentRuleViolation(.notVoidable, "The transaction has refunds; void those first.")
        }
        guard reversal || original.batchOpen else {
            throw PaymentRuleViolation(.notVoidable, "The batch has closed; refund the transaction instead.")
        }
        if !reversal, let made = original.createdAt, let now, !isSameVoidDay(made, now) {
            throw PaymentRuleViolation(
                .notVoidable, "A void is taken on the transaction's own day (UTC) only; refund it instead.")
        }
        return kind
    }

    // MARK: Issuer outcome

    /// How the gateway records an issuer's answer.
    public enum Outcome: Sendable, Hashable {
        /// Approved in full.
        case approved(amount: Int64)
        /// Approved for less than requested, and the request allowed it.
        case partiallyApproved(amount: Int64)
        /// Declined by the issuer, or a partial approval the request did not allow.
        case declined
    }

    /// Turns the issuer's approval into the recorded outcome. A partial approval stands only
    /// when the request allowed partial approvals; otherwise the payment is declined (the
    /// sandbox issuer keeps no hold, so nothing needs reversing).
    public static func outcome(
        requested: Int64, issuerApproved: Bool, approvedAmount: Int64?, allowPartial: Bool
    )
        -> Outcome
    {
        guard issuerApproved else { return .declined }
        let approved = approvedAmount ?? requested
        guard approved > 0 else { return .declined }
        if approved >= requested { return .approved(amount: requested) }
        return allowPartial ? .partiallyApproved(amount: approved) : .declined
    }
}

extension PaymentRules {
    /// Whether `now` is on the same day as `made` for the void window: the same UTC calendar
    /// day, at most 24 hours later.
    static func isSameVoidDay(_ made: Date, _ now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return now >= made && now.timeIntervalSince(made) < 86_400 && calendar.isDate(made, inSameDayAs: now)
    }
}
