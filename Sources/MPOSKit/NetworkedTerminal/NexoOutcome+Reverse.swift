import Foundation
import MPOSCore
import TerminalAPI

/// The reverse of ``NexoOutcome``'s mapping: a networked terminal's nexo answer read as
/// MPOSKit's `PaymentResult` (docs/terminal-api.md, "Networked terminals", has the table).
extension NexoOutcome {
    /// The result a `PaymentResponse` reports.
    ///
    /// - `Success` / `Partial` → approved, for `AmountsResp.AuthorizedAmount`;
    /// - `Failure` with `Cancel` or `Aborted` → cancelled;
    /// - `Failure` with `Refusal`, `WrongPIN`, `InvalidCard` or `PaymentRestriction` → declined,
    ///   with the sandbox response code whose refusal (``refusals``) has the same condition and
    ///   `message` (`05` when none has) and Adyen's `refusalReason`;
    /// - any other `Failure` → failed, with ``error(for:)``.
    ///
    /// The transaction id is `POITransactionID.TransactionID`; the masked PAN, brand and entry
    /// mode come from `PaymentInstrumentData.CardData`, the approval code from
    /// `PaymentAcquirerData` (or `AdditionalResponse`'s `authCode`), the AID and application
    /// label from the terminal's receipt lines `aid` and `preferredName`.
    public static func result(
        of response: PaymentResponse, kind: TransactionKind, requestedAmount: Int64, currency: Currency,
        idempotencyKey: IdempotencyKey
    ) -> PaymentResult {
        let answer = response.response
        let additional = answer.additionalResponse
        let status = status(of: answer)
        let paid = response.paymentResult
        let exponent = currency.minorUnits ?? 2
        var approved: Int64 = 0
        if status == .approved {
            // An AuthorizedAmount that does not read in the currency (more decimals than it has, or
            // out of range) counts as none sent: the requested amount, which a full approval is.
            approved =
                paid?.amountsResp.flatMap { try? Int64($0.authorizedAmount.minorUnits(exponent: exponent)) }
                ?? requestedAmount
        }
        let card = paid?.paymentInstrumentData?.cardData
        let id = response.poiData.poiTransactionID
        var result = PaymentResult(
            status: status, kind: kind, requestedAmount: requestedAmount, approvedAmount: approved,
            currency: currency,
            transactionID: TransactionID(rawValue: id.transactionID), idempotencyKey: idempotencyKey,
            authorizationCode: paid?.paymentAcquirerData?.approvalCode ?? additional?.authCode,
            responseCode: responseCode(of: answer, status: status),
            entryMode: card?.entryMode?.first.flatMap(entryMode), maskedPAN: card?.maskedPan.map(masked),
            scheme: card?.paymentBrand?.lowercased(), error: status == .failed ? error(for: answer) : nil,
            date: id.timeStamp.date)
        let aid = receiptValue("aid", in: response.paymentReceipt)
        let label = receiptValue("preferredName", in: response.paymentReceipt)
        if aid != nil || label != nil { result.emv = EMVReceiptSummary(aid: aid, applicationLabel: label) }
        result.cvm = paid?.authenticationMethod?.first.flatMap(verification)
        result.pinVerified = result.cvm == .pin || result.cvm == .pinAndSignature
        if status == .declined { result.refusalReason = additional?.refusalReason ?? additional?.message }
        return result
    }

    /// The value of the receipt line whose `key` is `key` (Adyen's receipts write each line as
    /// `name=AID&value=A0000000041010&key=aid`), from the first receipt that has one.
    static func receiptValue(_ key: String, in receipts: [TerminalAPI.PaymentReceipt]?) -> String? {
        for receipt in receipts ?? [] {
            for line in receipt.outputContent.outputText ?? [] {
                let fields = AdditionalResponse(text: line.text)
                if fields["key"] == key, let value = fields["value"], !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// A card number as a terminal sent it, with every digit but the first 6 and last 4 masked:
    /// a terminal that sent a whole number by mistake must not have it kept or shown.
    static func masked(_ pan: String) -> String { PaymentReceipt.masked(pan) }

    /// How a nexo `Response` ends a payment.
    static func status(of response: Response) -> PaymentStatus {
        switch (response.result, response.errorCondition) {
        case (.success, _), (.partial, _): .approved
        case (_, .cancel?), (_, .aborted?): .cancelled
        case (_, .refusal?), (_, .wrongPIN?), (_, .paymentRestriction?), (_, .other("InvalidCard")?):
            .declined
        default: .failed
        }
    }

    /// The sandbox response code of a refusal: the code whose ``refusals`` entry has the same
    /// condition and `message`; `05` when none has. For approvals, `AdditionalResponse`'s
    /// `responseCode` when the terminal sends one.
    static func responseCode(of response: Response, status: PaymentStatus) -> String? {
        let message = response.additionalResponse?.message
        switch status {
        case .declined:
            return refusals.first {
                $0.value.condition == response.errorCondition && $0.value.message == message
            }?.key
                ?? "05"
        case .approved: return response.additionalResponse?["responseCode"]
        default: return nil
        }
    }

    /// The MPOSError a failed answer stands for, the reverse of ``response(for:)-(MPOSError)``:
    /// Busy → ``MPOSError/terminalBusy``, LoggedOut → ``MPOSError/notLoggedIn``, UnreachableHost
    /// → ``MPOSError/gatewayUnreachable``, UnavailableDevice → ``MPOSError/readerLinkFailed``,
    /// any other → ``MPOSError/networkedTerminalRefused``; the message names the condition and
    /// the terminal's `message`.
    public static func error(for response: Response) -> MPOSError {
        let condition = response.errorCondition?.rawValue ?? response.result.rawValue
        let text =
            "The networked terminal answered \(condition): \(response.additionalResponse?.message ?? "no message")."
        let base: MPOSError =
            switch response.errorCondition {
            case .busy?: .terminalBusy
            case .loggedOut?: .notLoggedIn
            case .unreachableHost?: .gatewayUnreachable
            case .unavailableDevice?: .readerLinkFailed
            default: .networkedTerminalRefused
            }
        return base.withMessage(text)
    }

    /// How MPOSKit names a nexo entry mode.
    static func entryMode(_ mode: EntryMode) -> CardEntryMode? {
        switch mode {
        case .icc, .synchroICC: .chip
        case .tapped, .contactless, .rfid, .mobile: .contactless
        case .magStripe: .magstripe
        case .keyed, .manual: .manual
        case .file: .cardNotPresent
        default: nil
        }
    }

    /// How MPOSKit names a nexo authentication method.
    static func verification(_ method: AuthenticationMethod) -> CardholderVerification? {
        switch method {
        case .onlinePIN, .offlinePIN: .pin
        case .paperSignature, .signatureCapture: .signature
        case .bypass: .notRequired
        default: nil
        }
    }
}
