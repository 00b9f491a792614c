import Foundation
import GatewayAPI
import MPOSCore
import TerminalAPI

/// Builds the Terminal API answers of `terminal.perform(terminalAPIRequest:)`: the
/// response header mirroring the request's, a `PaymentResponse` from a payment's result, and
/// failure responses of the request's own service.
enum NexoReplies {
    /// The response header of a request: the same class, category, ids; type Response.
    static func header(answering request: MessageHeader) -> MessageHeader {
        var header = request
        header.messageType = .response
        return header
    }

    /// A failure of the request's service, or a `Reject` event notification for a service
    /// that has no response body here (as Adyen's terminals answer what they cannot take).
    static func failure(
        _ request: MessageHeader, condition: ErrorCondition, message: String,
        saleTransactionID: TransactionIdentification? = nil
    ) -> Data {
        let response = Response(
            result: .failure, errorCondition: condition,
            additionalResponse: AdditionalResponse(fields: [KeyValueField(name: "message", value: message)]))
        return reply(request, response: response, saleTransactionID: saleTransactionID)
    }

    /// A response of the request's service that carries only `response` (a refusal before
    /// anything ran), or a `Reject` for a service without a response body here.
    static func reply(
        _ request: MessageHeader, response: Response, saleTransactionID: TransactionIdentification? = nil
    ) -> Data {
        var reply = SaleToPOIResponse(messageHeader: header(answering: request))
        switch request.messageCategory {
        case .payment:
            let sale =
                saleTransactionID
                ?? TransactionIdentification(transactionID: "", timeStamp: NexoTimestamp(Date()))
            reply.paymentResponse = PaymentResponse(
                response: response, saleData: SaleData(saleTransactionID: sale),
                poiData: POIData(
                    poiTransactionID: TransactionIdentification(
                        transactionID: "", timeStamp: NexoTimestamp(Date()))))
        case .reversal:
            reply.reversalResponse = ReversalResponse(response: response)
        case .transactionStatus:
            reply.transactionStatusResponse = TransactionStatusResponse(response: response)
        case .diagnosis:
            reply.diagnosisResponse = DiagnosisResponse(response: response)
        default:
            return reject(request, reason: response.additionalResponse?.message ?? "not supported")
        }
        return NexoCoder.encode(reply)
    }

    /// The `Reject` event notification a terminal sends for a message it does not take.
    static func reject(_ request: MessageHeader?, reason: String) -> Data {
        let header = MessageHeader(
            protocolVersion: "3.0", messageClass: .event, messageCategory: .event, messageType: .notification,
            deviceID: request?.deviceID, saleID: request?.saleID ?? "N/A", poiID: request?.poiID ?? "N/A")
        let event = EventNotification(
            timeStamp: NexoTimestamp(Date()), eventToNotify: .reject,
            eventDetails: AdditionalResponse(fields: [KeyValueField(name: "message", value: reason)]).text)
        return NexoCoder.encode(SaleToPOIRequest(messageHeader: header, eventNotification: event))
    }

    /// The `PaymentResponse` for a payment's result.
    ///
    /// A sale stored offline answers Success with `OnlineFlag` false and its stored id as
    /// `POITransactionID` (the id it is forwarded under), as a store-and-forward terminal
    /// answers: the app can tell it from an online approval and keep the id.
    ///
    /// - Parameters:
    ///   - sale: the request's `SaleTransactionID`, echoed.
    ///   - poiID: the terminal's POIID, which Adyen repeats as `AcquirerPOIID` and prints as TID.
    ///   - merchant: the merchant, whose name is the `MerchantID` and heads the receipts.
    static func paymentResponse(
        _ result: PaymentResult, sale: TransactionIdentification, poiID: String, merchant: MerchantInfo?,
        abortedByMerchant: Bool = false
    ) -> PaymentResponse {
        let merchantID = merchant?.name
        var response = NexoOutcome.response(for: result, abortedByMerchant: abortedByMerchant)
        if response.additionalResponse == nil, let code = result.responseCode {
            response.additionalResponse = AdditionalResponse(fields: [
                KeyValueField(name: "responseCode", value: code)
            ])
        }
        let stamp = NexoTimestamp(result.date)
        let exponent = result.currency.minorUnits ?? 2
        let card = result.maskedPAN.map { pan in
            CardData(
                paymentBrand: result.scheme, maskedPan: pan,
                entryMode: result.entryMode.map { [entryMode($0)] })
        }
        let acquirer = result.transactionID.map { id in
            PaymentAcquirerData(
                merchantID: merchantID ?? "MPOSKit", acquirerPOIID: poiID,
                acquirerTransactionID: TransactionIdentification(
                    transactionID: id.rawValue, timeStamp: stamp),
                approvalCode: result.authorizationCode)
        }
        let paymentResult = TerminalAPI.PaymentResult(
            paymentType: result.kind == .refund ? .refund : .normal,
            paymentInstrumentData: PaymentInstrumentData(paymentInstrumentType: "Card", cardData: card),
            amountsResp: AmountsResp(
                currency: result.currency.code,
                authorizedAmount: NexoAmount(minorUnits: Int(result.approvedAmount), exponent: exponent)),
            onlineFlag: result.transactionID != nil, paymentAcquirerData: acquirer)
        var receipt = PaymentReceipt(result, merchant: merchant)
        receipt.terminalID = poiID
        let poiTransactionID = result.transactionID?.rawValue ?? result.offlineID?.uuidString ?? ""
        return PaymentResponse(
            response: response, saleData: SaleData(saleTransactionID: sale),
            poiData: POIData(
                poiTransactionID: TransactionIdentification(transactionID: poiTransactionID, timeStamp: stamp)
            ),
            paymentResult: paymentResult,
            paymentReceipt: NexoReceipts.paymentReceipts(receipt, storedOfflineID: result.offlineID))
    }

    /// How nexo names a card entry mode.
    static func entryMode(_ mode: CardEntryMode) -> EntryMode {
        switch mode {
        case .chip: .icc
        case .contactless: .tapped
        case .magstripe, .magstripeFallback: .magStripe
        case .manual: .keyed
        case .cardNotPresent: .file
        }
    }

    /// A result as the gateway recorded an attempt (for an outcome the app lost).
    static func result(of transaction: Transaction, key: IdempotencyKey) -> PaymentResult {
        let status: PaymentStatus =
            switch transaction.status {
            case .approved, .partiallyApproved, .processed: .approved
            case .cancelled: .cancelled
            // A refund the gateway received and decides later.
            case .pending where transaction.kind == .refund: .pending
            case .failed, .pending: .failed
            default: .declined
            }
        return PaymentResult(
            status: status, kind: transaction.kind, requestedAmount: transaction.requestedAmount,
            approvedAmount: status == .approved ? transaction.approvedAmount : 0,
            currency: transaction.currency,
            transactionID: transaction.id, idempotencyKey: key,
            authorizationCode: transaction.authorizationCode,
            responseCode: transaction.responseCode, cvm: transaction.cvm, entryMode: transaction.entryMode,
            maskedPAN: transaction.card?.maskedPAN, scheme: transaction.card?.scheme, recovered: true,
            date: transaction.createdAt)
    }
}
