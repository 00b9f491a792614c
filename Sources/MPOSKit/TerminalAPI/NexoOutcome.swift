import TerminalAPI

/// How MPOSKit's payment outcomes read in the Terminal API: the nexo `Result`, `ErrorCondition`
/// and Adyen's refusal reason for each way a payment ends, one to one with the sandbox's
/// response codes (docs/test-cards.md) and Adyen's test-acquirer answers for the amounts
/// ending in 124–134 (docs/terminal-api.md has the table).
///
/// Pure functions: `terminal.perform(terminalAPIRequest:)` and networked terminals are
/// built on them.
public enum NexoOutcome {
    /// A refusal as Adyen reports it.
    public struct Refusal: Sendable, Hashable {
        /// The nexo error condition.
        public let condition: ErrorCondition
        /// `AdditionalResponse`'s `message`.
        public let message: String
        /// `AdditionalResponse`'s `refusalReason` (Adyen's number and text), when Adyen gives one.
        public let refusalReason: String?
    }

    /// The refusal for each ISO 8583 response code the sandbox issuer answers with.
    public static let refusals: [String: Refusal] = [
        "05": Refusal(condition: .refusal, message: "REFUSED", refusalReason: nil),
        "51": Refusal(
            condition: .refusal, message: "NOT_ENOUGH_BALANCE", refusalReason: "210 Not enough balance"),
        "62": Refusal(condition: .refusal, message: "BLOCK_CARD", refusalReason: "199 Card blocked"),
        "54": Refusal(condition: .refusal, message: "CARD_EXPIRED", refusalReason: "228 Card expired"),
        "13": Refusal(condition: .refusal, message: "INVALID_AMOUNT", refusalReason: "214 Declined online"),
        "14": Refusal(
            condition: .other("InvalidCard"), message: "INVALID_CARD", refusalReason: "214 Declined online"),
        "55": Refusal(condition: .wrongPIN, message: "INVALID_PIN", refusalReason: "129 Invalid online PIN"),
        "75": Refusal(condition: .wrongPIN, message: "PIN_TRIES_EXCEEDED", refusalReason: nil),
        "57": Refusal(condition: .refusal, message: "TRANSACTION_NOT_PERMITTED", refusalReason: nil),
        "63": Refusal(condition: .refusal, message: "SECURITY_VIOLATION", refusalReason: nil),
    ]

    /// The merchant's abort of a payment in progress, as Adyen answers it.
    public static let merchantAbort = Refusal(
        condition: .aborted, message: "104 Merchant cancelled", refusalReason: nil)

    /// The nexo `Response` for a payment's result.
    ///
    /// - Parameter abortedByMerchant: whether a cancelled payment was stopped by the sale
    ///   system (an `AbortRequest`) rather than on the reader.
    public static func response(for result: PaymentResult, abortedByMerchant: Bool = false) -> Response {
        switch result.status {
        case .approved:
            let partial = result.approvedAmount > 0 && result.approvedAmount < result.requestedAmount
            guard let code = acquirerResponseCode(of: result) else {
                return Response(result: partial ? .partial : .success)
            }
            // A refund decided at once says so, as Adyen's synchronous refunds do.
            return Response(
                result: partial ? .partial : .success,
                additionalResponse: AdditionalResponse(fields: [
                    KeyValueField(name: "responseCode", value: code),
                    KeyValueField(name: "acquirerResponseCode", value: code),
                ]))
        case .pending:
            // A refund the gateway received and decides later: the answer only confirms the
            // request (Success, no acquirerResponseCode); the outcome comes by webhook.
            return Response(
                result: .success,
                additionalResponse: AdditionalResponse(fields: [
                    KeyValueField(name: "message", value: receivedMessage)
                ]))
        case .approvedOffline:
            // The card approved and the sale is stored to be forwarded: a success the app can
            // tell from an online one by the stored id.
            // `offline=true` is how Adyen's answers mark a payment approved offline.
            var fields = [
                KeyValueField(name: "message", value: "APPROVED_OFFLINE"),
                KeyValueField(name: "offline", value: "true"),
            ]
            if let id = result.offlineID {
                fields.append(KeyValueField(name: "offlineID", value: id.uuidString))
            }
            return Response(result: .success, additionalResponse: AdditionalResponse(fields: fields))
        case .declined:
            let code = result.responseCode ?? "05"
            var declined = response(
                refusals[code] ?? Refusal(condition: .refusal, message: "REFUSED", refusalReason: nil))
            if let acquirer = acquirerResponseCode(of: result) {
                declined.additionalResponse = AdditionalResponse(
                    fields: (declined.additionalResponse?.fields ?? [])
                        + [KeyValueField(name: "acquirerResponseCode", value: acquirer)])
            }
            return declined
        case .cancelled:
            return response(
                abortedByMerchant
                    ? merchantAbort : Refusal(condition: .cancel, message: "CANCELLED", refusalReason: nil))
        case .failed:
            return response(for: result.error ?? MPOSError.readerLinkFailed)
        }
    }

    /// `AdditionalResponse`'s `message` for a refund received and not yet decided.
    public static let receivedMessage = "RECEIVED"

    /// The acquirer's response code a refund decided at once carries (Adyen's
    /// `acquirerResponseCode`); nil for other kinds and for refunds not decided yet.
    static func acquirerResponseCode(of result: PaymentResult) -> String? {
        guard result.kind == .refund, result.status == .approved || result.status == .declined else { return nil }
        return result.responseCode
    }

    /// The nexo `Response` for an error that ended (or prevented) a payment.
    public static func response(for error: MPOSError) -> Response {
        let condition: ErrorCondition =
            switch error.code {
            case MPOSError.Code.terminalBusy: .busy
            case MPOSError.Code.notLoggedIn: .loggedOut
            case MPOSError.Code.paymentCancelled: .cancel
            case MPOSError.Code.gatewayUnreachable: .unreachableHost
            // The gateway was out of reach and the sale could not be stored offline.
            case MPOSError.Code.onlineRequired...MPOSError.Code.offlineTotalLimit: .unreachableHost
            default:
                switch error.category {
                case .integration: .notAllowed
                case .cardholder: .cancel
                case .reader: .unavailableDevice
                case .network: .unreachableHost
                case .gateway, .storage, .unassigned: .unavailableService
                }
            }
        return Response(
            result: .failure, errorCondition: condition,
            additionalResponse: AdditionalResponse(fields: [
                KeyValueField(name: "message", value: error.message)
            ]))
    }

    /// The transaction kind a payment request's `PaymentType` asks for: a sale for Normal (or
    /// none), an unreferenced refund for Refund, nil for the kinds MPOSKit does not offer.
    public static func transactionKind(for paymentType: PaymentType?) -> TransactionKind? {
        switch paymentType {
        case nil, .normal?: .sale
        case .refund?: .refund
        default: nil
        }
    }

    /// A request's amount in minor units of its currency.
    ///
    /// - Throws: `NexoError` `.invalidValue` for an unknown currency, `.amountPrecision` when
    ///   the amount is finer than the currency allows.
    public static func minorUnits(_ amount: NexoAmount, currency code: String, field: String? = nil)
        throws(NexoError) -> (Int64, Currency)
    {
        guard let currency = Currency(code: code), let exponent = currency.minorUnits else {
            throw NexoError(
                .invalidValue, field: field,
                message: "currency \(code) is not an ISO 4217 currency with minor units")
        }
        return (Int64(try amount.minorUnits(exponent: exponent, field: field)), currency)
    }

    private static func response(_ refusal: Refusal) -> Response {
        var fields = [KeyValueField(name: "message", value: refusal.message)]
        if let reason = refusal.refusalReason {
            fields.append(KeyValueField(name: "refusalReason", value: reason))
        }
        return Response(
            result: .failure, errorCondition: refusal.condition,
            additionalResponse: AdditionalResponse(fields: fields))
    }
}
