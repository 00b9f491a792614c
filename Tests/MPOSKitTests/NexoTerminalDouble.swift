import Foundation
import MPOSCore
import Synchronization
import TerminalAPI
import Testing

@testable import MPOSKit

/// A networked terminal in a `GatewayTransport`: it decodes (and, with a key, decrypts) each
/// posted Terminal API request, keeps it, and answers as its script says.
final class NexoTerminalDouble: GatewayTransport, Sendable {
    /// What the terminal does with one request.
    enum Reply: Sendable {
        /// Answers with the response (encrypted under the key, when there is one).
        case response(SaleToPOIResponse)
        /// Answers with the response in clear, even with a key.
        case clear(SaleToPOIResponse)
        /// Takes the request and drops the connection: no HTTP answer.
        case lost
        /// Answers with this HTTP status and no body.
        case http(Int)
        /// Answers nothing (an abort).
        case empty
    }

    /// Answers the request; `index` counts the requests received, from 0.
    typealias Script = @Sendable (SaleToPOIRequest, _ index: Int) async -> Reply

    let crypto: NexoCrypto?
    private let script: Mutex<Script>
    private let requests = Mutex<[SaleToPOIRequest]>([])
    /// Each request as it arrives, before it is answered.
    let arrivals: AsyncStream<SaleToPOIRequest>
    private let arrivalsSink: AsyncStream<SaleToPOIRequest>.Continuation

    init(key: NexoSecurityKey? = nil, script: @escaping Script) {
        crypto = key.map { NexoCrypto(key: $0) }
        self.script = Mutex(script)
        (arrivals, arrivalsSink) = AsyncStream.makeStream()
    }

    /// Replaces the script (a terminal that comes back, say).
    func answer(with script: @escaping Script) { self.script.withLock { $0 = script } }

    /// The requests received, in order.
    var received: [SaleToPOIRequest] { requests.withLock { $0 } }

    /// How many requests of `category` were received.
    func count(_ category: MessageCategory) -> Int {
        received.filter { $0.messageHeader.messageCategory == category }.count
    }

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        guard request.path == "/nexo", let body = request.body,
            var message = try? NexoCoder.decodeRequest(body)
        else {
            Issue.record("not a Terminal API post: \(request.method) \(request.path)")
            return GatewayHTTPResponse(status: 404, body: Data())
        }
        if let crypto {
            guard message.nexoBlob != nil, let opened = try? crypto.decrypt(message) else {
                Issue.record("a request that is not encrypted under the key")
                return GatewayHTTPResponse(status: 400, body: Data())
            }
            message = opened
        }
        let index = requests.withLock { list in
            list.append(message)
            return list.count - 1
        }
        arrivalsSink.yield(message)
        let script = script.withLock { $0 }
        switch await script(message, index) {
        case .response(let response):
            let sealed = crypto.map { $0.encrypt(response) } ?? response
            return GatewayHTTPResponse(status: 200, body: NexoCoder.encode(sealed))
        case .clear(let response): return GatewayHTTPResponse(status: 200, body: NexoCoder.encode(response))
        case .lost: throw GatewayTransportError(reason: "connection reset")
        case .http(let status): return GatewayHTTPResponse(status: status, body: Data())
        case .empty: return GatewayHTTPResponse(status: 200, body: Data())
        }
    }

    // MARK: - Answers

    /// The response header answering `request`.
    static func header(_ request: SaleToPOIRequest) -> MessageHeader {
        NexoReplies.header(answering: request.messageHeader)
    }

    /// A `PaymentResponse` to `request`: approved for its amount with the test card, or the
    /// failure given.
    static func payment(
        _ request: SaleToPOIRequest, result: NexoResult = .success, condition: ErrorCondition? = nil,
        fields: [KeyValueField] = [], transactionID: String = "TX-1"
    ) -> PaymentResponse {
        let asked = request.paymentRequest?.paymentTransaction.amountsReq
        let stamp = NexoTimestamp(Date(timeIntervalSince1970: 1_700_000_000))
        return PaymentResponse(
            response: Response(
                result: result, errorCondition: condition,
                additionalResponse: fields.isEmpty ? nil : AdditionalResponse(fields: fields)),
            saleData: request.paymentRequest?.saleData
                ?? SaleData(saleTransactionID: TransactionIdentification(transactionID: "", timeStamp: stamp)),
            poiData: POIData(
                poiTransactionID: TransactionIdentification(transactionID: transactionID, timeStamp: stamp)),
            paymentResult: result == .failure
                ? nil
                : TerminalAPI.PaymentResult(
                    paymentInstrumentData: PaymentInstrumentData(
                        paymentInstrumentType: "Card",
                        cardData: CardData(
                            paymentBrand: "VISA", maskedPan: "411111******1111", entryMode: [.icc])),
                    amountsResp: AmountsResp(
                        currency: asked?.currency, authorizedAmount: asked?.requestedAmount ?? NexoAmount(0)),
                    authenticationMethod: [.onlinePIN],
                    paymentAcquirerData: PaymentAcquirerData(
                        merchantID: "M", acquirerPOIID: request.messageHeader.poiID,
                        approvalCode: "123456")))
    }

    /// The whole response message for a payment response.
    static func message(_ request: SaleToPOIRequest, _ payment: PaymentResponse) -> SaleToPOIResponse {
        SaleToPOIResponse(messageHeader: header(request), paymentResponse: payment)
    }

    /// A TransactionStatus answer: the payment's response repeated, or a failure.
    static func status(
        _ request: SaleToPOIRequest, repeating payment: PaymentResponse? = nil,
        condition: ErrorCondition? = nil
    )
        -> SaleToPOIResponse
    {
        let reference = request.transactionStatusRequest?.messageReference
        var body = TransactionStatusResponse(
            response: Response(result: payment == nil ? .failure : .success, errorCondition: condition),
            messageReference: reference)
        if let payment {
            body.repeatedMessageResponse = RepeatedMessageResponse(
                messageHeader: MessageHeader(
                    messageClass: .service, messageCategory: .payment, messageType: .response,
                    serviceID: reference?.serviceID, saleID: reference?.saleID ?? "",
                    poiID: request.messageHeader.poiID),
                repeatedResponseMessageBody: RepeatedResponseMessageBody(paymentResponse: payment))
        }
        return SaleToPOIResponse(messageHeader: header(request), transactionStatusResponse: body)
    }
}
