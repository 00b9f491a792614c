/// A payment request that breaks one of the gateway's business rules.
///
/// Each violation has a stable ``Reason`` (its raw value is the machine-readable error code
/// on the wire), a human-readable message and the HTTP status the routes answer with.
public struct PaymentRuleViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a request was refused. Raw values are stable wire codes.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The amount is zero, negative or too large.
        case invalidAmount = "invalid_amount"
        /// The currency code is not an ISO 4217 currency with minor units.
        case unknownCurrency = "unknown_currency"
        /// The statement descriptor (or its suffix) breaks the descriptor rules.
        case invalidDescriptor = "invalid_descriptor"
        /// The external id is empty or longer than 50 characters.
        case invalidExternalID = "invalid_external_id"
        /// A field is missing or malformed.
        case invalidField = "invalid_field"
        /// The same card paid the same amount in the same currency within the duplicate window.
        case duplicateTransaction = "duplicate_transaction"
        /// A refund would return more than was captured and not yet refunded.
        case refundExceedsCaptured = "refund_exceeds_captured"
        /// A capture asks for more than was authorised.
        case captureExceedsAuthorized = "capture_exceeds_authorized"
        /// The transaction cannot be captured (wrong kind, not approved, already captured).
        case notCapturable = "not_capturable"
        /// The transaction cannot be refunded.
        case notRefundable = "not_refundable"
        /// The transaction cannot be voided or reversed.
        case notVoidable = "not_voidable"
        /// The tip can no longer be changed: wrong kind, or its batch has closed.
        case tipAdjustmentClosed = "tip_adjustment_closed"
        /// The issuer approved part of the amount but the request did not allow partial approval.
        case partialApprovalNotAllowed = "partial_approval_not_allowed"
        /// The transaction, batch or resource does not exist for this merchant.
        case notFound = "not_found"
        /// The request conflicts with stored state (an inventory version not above the current one).
        case conflict = "conflict"
        /// The encrypted card data or the EMV data could not be opened or verified.
        case cardDataRejected = "card_data_rejected"
    }

    /// Why the request was refused.
    public let reason: Reason
    /// What exactly was wrong, for the developer reading the response.
    public let message: String

    /// Creates a violation.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The gateway error code (GatewayAPI's `GatewayErrorCode`): 4001 invalid value, 4040 not
    /// found, 4092 invalid state, 4093 duplicate payment, 4220 refused before authorisation.
    public var gatewayCode: Int {
        switch reason {
        case .notFound: 4040
        case .duplicateTransaction: 4093
        case .captureExceedsAuthorized, .notCapturable, .notRefundable, .notVoidable, .tipAdjustmentClosed,
            .conflict:
            4092
        case .refundExceedsCaptured, .cardDataRejected, .partialApprovalNotAllowed: 4220
        case .invalidAmount, .unknownCurrency, .invalidDescriptor, .invalidExternalID, .invalidField: 4001
        }
    }

    /// The HTTP status to answer with: the first three digits of ``gatewayCode``.
    public var httpStatus: Int { gatewayCode / 10 }

    /// `"code: message"`.
    public var description: String { "\(reason.rawValue): \(message)" }
}
