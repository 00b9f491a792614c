import Foundation
import GatewayAPI
import MPOSCore
import TerminalAPI

// Terminal API requests about an earlier payment: TransactionStatus (its outcome, also one
// the app lost) and Reversal (a void, or a refund once the gateway no longer voids).
extension TerminalAPIAdapter {
    /// What the journal and the gateway say about an earlier payment request.
    enum RecordedPayment {
        /// The gateway's record, as the payment's response.
        case answered(PaymentResponse)
        /// Not known as a payment: the `Response` says why (`InProgress`, `NotFound`, …).
        case unknown(Response)
    }

    /// The outcome of the payment made with `key`, from the gateway's record of the attempt.
    func recordedPayment(key: IdempotencyKey, sale: TransactionIdentification?, poiID: String) async
        -> RecordedPayment
    {
        switch await client.lookup(key) {
        case .found(.transaction(let transaction)):
            let sale =
                sale
                ?? TransactionIdentification(
                    transactionID: transaction.externalID ?? "",
                    timeStamp: NexoTimestamp(transaction.createdAt))
            return .answered(
                NexoReplies.paymentResponse(
                    NexoReplies.result(of: transaction, key: key), sale: sale, poiID: poiID,
                    merchant: await client.merchant))
        case .found(.refused(let status, _)):
            return .unknown(
                Self.failure(.unavailableService, "the gateway refused the payment (HTTP \(status))"))
        case .notFound:
            return .unknown(
                Self.failure(.notFound, "the payment never reached the gateway: nothing was charged"))
        case .inProgress:
            return .unknown(Self.failure(.inProgress, "the gateway is still processing the payment"))
        case .unreachable:
            return .unknown(
                Self.failure(.unreachableHost, "the gateway could not be reached to learn the outcome"))
        case .sessionRefused:
            return .unknown(
                Self.failure(.loggedOut, "the gateway refused the terminal's session and a new login"))
        }
    }

    /// Answers a TransactionStatus request for the payment its `MessageReference` names (the
    /// last payment when it names none).
    func perform(_ status: TransactionStatusRequest, header: MessageHeader) async -> Data {
        let asked = status.messageReference
        let reference: NexoSession.Reference
        if let serviceID = asked?.serviceID {
            reference = NexoSession.Reference(saleID: asked?.saleID ?? header.saleID, serviceID: serviceID)
        } else if let last = nexo.last {
            reference = last
        } else {
            return NexoReplies.reply(header, response: Self.failure(.notFound, "no payment was requested"))
        }
        if nexo.running?.reference == reference {
            return NexoReplies.reply(
                header, response: Self.failure(.inProgress, "the payment is in progress"))
        }
        let found: RecordedPayment
        if let answered = nexo.answered[reference] {
            found = .answered(answered)
        } else {
            let key = NexoSession.key(for: reference)
            let journaled: Bool
            do { journaled = try journal.entry(key: key) != nil } catch {
                // A journal that cannot be read does not say the payment does not exist.
                return NexoReplies.reply(header, response: NexoOutcome.response(for: error))
            }
            guard journaled else {
                return NexoReplies.reply(
                    header,
                    response: Self.failure(.notFound, "no payment with ServiceID \(reference.serviceID)"))
            }
            found = await recordedPayment(key: key, sale: nil, poiID: header.poiID)
        }
        switch found {
        case .answered(let payment):
            let paymentHeader = MessageHeader(
                protocolVersion: header.protocolVersion, messageClass: .service, messageCategory: .payment,
                messageType: .response, serviceID: reference.serviceID, deviceID: header.deviceID,
                saleID: reference.saleID, poiID: header.poiID)
            let body = TransactionStatusResponse(
                response: Response(result: .success), messageReference: asked,
                repeatedMessageResponse: RepeatedMessageResponse(
                    messageHeader: paymentHeader,
                    repeatedResponseMessageBody: RepeatedResponseMessageBody(paymentResponse: payment)))
            return NexoCoder.encode(
                SaleToPOIResponse(
                    messageHeader: NexoReplies.header(answering: header), transactionStatusResponse: body))
        case .unknown(let response):
            return NexoReplies.reply(header, response: response)
        }
    }

    /// Reverses an earlier payment: a void while the gateway voids it, a refund otherwise
    /// (and for a part of the amount).
    func perform(_ reversal: ReversalRequest, header: MessageHeader, payments: some TerminalAPIPayments) async
        -> Data
    {
        let field = "SaleToPOIRequest.ReversalRequest.OriginalPOITransaction.POITransactionID"
        guard let text = reversal.originalPOITransaction.poiTransactionID?.transactionID,
            let id = TransactionID(rawValue: text)
        else {
            return NexoReplies.failure(
                header, condition: .messageFormat,
                message: "\(field) does not name a transaction of this terminal")
        }
        let hold: OperationGate.Hold
        do { hold = try gate.begin(.terminalAPIRequest) } catch {
            return NexoReplies.failure(header, condition: .busy, message: "A payment is in progress")
        }
        defer { gate.end(hold) }
        var partial: Int64?
        if let amount = reversal.reversedAmount {
            // The currency is the original payment's: as this session answered it, else as the
            // gateway recorded it.
            let original = nexo.answered.values.first { $0.poiData.poiTransactionID.transactionID == text }
            let currency: Currency
            if let known = original?.paymentResult?.amountsResp?.currency.flatMap({ Currency(code: $0) }) {
                currency = known
            } else {
                do { currency = try await Receipts(client: client).data(transactionID: id).currency } catch {
                    return NexoReplies.reply(header, response: NexoOutcome.response(for: error))
                }
            }
            do {
                partial = Int64(
                    try amount.minorUnits(
                        exponent: currency.minorUnits ?? 2,
                        field: "SaleToPOIRequest.ReversalRequest.ReversedAmount"))
            } catch {
                return NexoReplies.failure(header, condition: error.condition, message: error.description)
            }
        }
        let result: PaymentResult
        do {
            result = try await gate.nested(in: hold) { () async throws(MPOSError) -> PaymentResult in
                let voided = partial == nil ? try await payments.void(transactionID: id) : nil
                if let voided, voided.error?.code != MPOSError.Code.gatewayRefused { return voided }
                return try await payments.refund(transactionID: id, amount: partial)
            }
        } catch {
            return NexoReplies.reply(header, response: NexoOutcome.response(for: error))
        }
        let stamp = NexoTimestamp(result.date)
        let body = ReversalResponse(
            response: NexoOutcome.response(for: result),
            poiData: result.transactionID.map {
                POIData(
                    poiTransactionID: TransactionIdentification(transactionID: $0.rawValue, timeStamp: stamp))
            },
            originalPOITransaction: reversal.originalPOITransaction,
            reversedAmount: result.status == .approved
                ? NexoAmount(
                    minorUnits: Int(result.approvedAmount), exponent: result.currency.minorUnits ?? 2) : nil)
        return NexoCoder.encode(
            SaleToPOIResponse(messageHeader: NexoReplies.header(answering: header), reversalResponse: body))
    }

    private static func failure(_ condition: ErrorCondition, _ message: String) -> Response {
        Response(
            result: .failure, errorCondition: condition,
            additionalResponse: AdditionalResponse(fields: [KeyValueField(name: "message", value: message)]))
    }
}
