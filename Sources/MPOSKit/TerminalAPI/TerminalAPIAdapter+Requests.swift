import Foundation
import GatewayAPI
import MPOSCore
import TerminalAPI

// Terminal API (nexo) requests, as Adyen's SDK takes them (`Payment.Request(data:)`): one
// JSON request in, one JSON response out, run through the same journaled card flow as `sale`.
extension TerminalAPIAdapter {
    /// What ``PaymentTerminal/perform(terminalAPIRequest:)`` documents: decodes, checks the
    /// POIID, and runs the request through `payments`.
    func perform(terminalAPIRequest data: Data, payments: some TerminalAPIPayments) async throws(MPOSError) -> Data
    {
        let request: SaleToPOIRequest
        do {
            request = try NexoCoder.decodeRequest(data)
        } catch {
            // Without a readable header there is no service to answer: the decoding error is thrown.
            guard let header = try? NexoCoder.decode(HeaderOnly.self, from: data).request.header else {
                throw MPOSError.terminalAPI(error)
            }
            return NexoReplies.failure(header, condition: error.condition, message: error.description)
        }
        let header = request.messageHeader
        if request.nexoBlob != nil {
            throw MPOSError.terminalAPI(
                NexoError(
                    .encryptionExpected, condition: .notAllowed, field: "SaleToPOIRequest.NexoBlob",
                    message: "an encrypted message: decrypt it with NexoCrypto before performing it"))
        }
        let poiID = installationID()
        guard header.poiID == poiID else {
            return NexoReplies.failure(
                header, condition: .notAllowed,
                message: "POIID \(header.poiID) is not this terminal's installation id \(poiID)")
        }
        if let payment = request.paymentRequest {
            return await perform(payment, header: header, poiID: poiID, payments: payments)
        }
        if let reversal = request.reversalRequest {
            return await perform(reversal, header: header, payments: payments)
        }
        if let status = request.transactionStatusRequest { return await perform(status, header: header) }
        if let abort = request.abortRequest {
            await perform(abort, header: header, payments: payments)
            return Data()
        }
        return NexoReplies.reject(
            header, reason: "\(header.messageCategory.rawValue) is not offered by this terminal")
    }

    // MARK: - Payment

    private func perform(
        _ payment: PaymentRequest, header: MessageHeader, poiID: String, payments: some TerminalAPIPayments
    ) async -> Data {
        let sale = payment.saleData.saleTransactionID
        let reference = NexoSession.Reference(saleID: header.saleID, serviceID: header.serviceID ?? "")
        if let answered = nexo.answered[reference] {
            return NexoCoder.encode(
                SaleToPOIResponse(
                    messageHeader: NexoReplies.header(answering: header), paymentResponse: answered))
        }
        // Held before anything awaits, so that a second request meanwhile is Busy.
        let hold: OperationGate.Hold
        do { hold = try gate.begin(.terminalAPIRequest) } catch {
            return NexoReplies.failure(
                header, condition: .busy, message: "Another payment is in progress", saleTransactionID: sale)
        }
        defer { gate.end(hold) }
        nexo.started(reference)
        defer { nexo.ended() }
        let path = "SaleToPOIRequest.PaymentRequest"
        guard let kind = NexoOutcome.transactionKind(for: payment.paymentData?.paymentType) else {
            return NexoReplies.failure(
                header, condition: .notAllowed,
                message:
                    "\(path).PaymentData.PaymentType \(payment.paymentData?.paymentType?.rawValue ?? "") is not offered",
                saleTransactionID: sale)
        }
        var parameters: PaymentParameters
        do {
            parameters = try Self.parameters(of: payment, path: path)
            // Store and forward, as the native API's `offlineAllowed`: sales only, and the
            // merchant's offline limits decide (the engine refuses beyond them).
            parameters.offlineAllowed = kind == .sale && nexo.storeAndForward
        } catch {
            return NexoReplies.failure(
                header, condition: error.condition, message: error.description, saleTransactionID: sale)
        }
        let key = NexoSession.key(for: reference)
        nexo.last = reference
        let askedBefore: Bool
        do { askedBefore = try journal.entry(key: key) != nil } catch {
            // Unread, the journal cannot say whether this request was charged before: no new payment.
            return NexoReplies.reply(header, response: NexoOutcome.response(for: error), saleTransactionID: sale)
        }
        if askedBefore {
            // Asked before (the app restarted since): answer what the gateway recorded.
            switch await recordedPayment(key: key, sale: sale, poiID: poiID) {
            case .answered(let response):
                nexo.remember(response, for: reference)
                return NexoCoder.encode(
                    SaleToPOIResponse(
                        messageHeader: NexoReplies.header(answering: header), paymentResponse: response))
            case .unknown(let response) where response.errorCondition != .notFound:
                return NexoReplies.reply(header, response: response, saleTransactionID: sale)
            case .unknown:
                // The gateway never saw it, so nothing was charged: the payment runs now, under the same key.
                break
            }
        }
        let response: PaymentResponse
        do {
            let result = try await gate.nested(in: hold) { () async throws(MPOSError) in
                try await payments.runCard(
                    parameters, kind: kind == .refund ? .refundUnreferenced : .sale, mandateReference: nil, key: key)
            }
            response = NexoReplies.paymentResponse(
                result, sale: sale, poiID: poiID, merchant: await client.merchant,
                abortedByMerchant: nexo.aborted)
        } catch {
            // Refused before any card was read: answered, not remembered, so the request may come again.
            return NexoReplies.reply(
                header, response: NexoOutcome.response(for: error), saleTransactionID: sale)
        }
        nexo.remember(response, for: reference)
        return NexoCoder.encode(
            SaleToPOIResponse(messageHeader: NexoReplies.header(answering: header), paymentResponse: response)
        )
    }

    /// The payment parameters a request asks for.
    ///
    /// - Throws: `NexoError` (`MessageFormat`) naming the field: no requested amount, an unknown
    ///   currency, an amount finer than its currency, a sale transaction id over 50 characters.
    static func parameters(of payment: PaymentRequest, path: String) throws(NexoError) -> PaymentParameters {
        let amounts = payment.paymentTransaction.amountsReq
        let amountPath = "\(path).PaymentTransaction.AmountsReq"
        guard let requested = amounts.requestedAmount else {
            throw NexoError(
                .missingField, field: "\(amountPath).RequestedAmount", message: "no amount is requested")
        }
        let (minor, currency) = try NexoOutcome.minorUnits(
            requested, currency: amounts.currency, field: "\(amountPath).RequestedAmount")
        guard minor > 0 else {
            throw NexoError(
                .invalidValue, field: "\(amountPath).RequestedAmount", message: "the amount must be positive")
        }
        let reference = payment.saleData.saleTransactionID.transactionID
        guard reference.count <= 50 else {
            throw NexoError(
                .invalidValue, field: "\(path).SaleData.SaleTransactionID.TransactionID",
                message: "a sale transaction id has at most 50 characters here")
        }
        return PaymentParameters(
            amount: minor, currency: currency, externalID: reference.isEmpty ? nil : reference)
    }

    // MARK: - Abort

    private func perform(_ abort: AbortRequest, header: MessageHeader, payments: some TerminalAPIPayments) async {
        let target = abort.messageReference
        guard let running = nexo.running?.reference, target.messageCategory == nil || target.messageCategory == .payment,
            target.serviceID == running.serviceID, (target.saleID ?? header.saleID) == running.saleID
        else { return }
        // Counted while the reader answers: a later abort may find the payment already ending.
        nexo.abortSent()
        // Nexo answers no abort: one refused at PIN entry, or unanswered, leaves the payment running.
        let accepted = (try? await payments.cancel()) ?? false
        nexo.abortAnswered(accepted: accepted, for: running)
    }
}

/// Just the header of a request whose body could not be read.
private struct HeaderOnly: Decodable {
    struct Body: Decodable {
        let header: MessageHeader
        enum CodingKeys: String, CodingKey { case header = "MessageHeader" }
    }
    let request: Body
    enum CodingKeys: String, CodingKey { case request = "SaleToPOIRequest" }
}
