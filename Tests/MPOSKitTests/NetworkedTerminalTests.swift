import Foundation
import GRDB
import MPOSCore
import MPOSTestSupport
import Synchronization
import TerminalAPI
import Testing

@testable import MPOSKit

/// A networked terminal driven through `PaymentTerminal` against a scripted terminal: the
/// nexo answers map to `PaymentResult`s, and a lost answer is settled with TransactionStatus,
/// never by sending the payment again.
@Suite(.timeLimit(.minutes(2)))
struct NetworkedTerminalTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lan-\(UUID().uuidString)")
    let clock = ManualClock()
    var journalPath: String { directory.appendingPathComponent("journal.sqlite").path }

    /// A terminal whose gateway must never be asked (no login in this mode), connected to `double`.
    func connected(
        _ double: NexoTerminalDouble, key: NexoSecurityKey? = nil, deadline: Duration = .seconds(120)
    ) async throws -> PaymentTerminal {
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: journalPath, transport: NoGateway(), clock: clock)
        try await terminal.connect(
            NetworkedTerminal(
                url: URL(string: "http://192.0.2.10:8443/")!, poiID: "V400m-123456789", saleID: "till-1",
                key: key,
                transport: double, settlementDeadline: deadline))
        return terminal
    }

    /// The journal's row for the payment request with `serviceID`: its state, read as another
    /// process would.
    func journaledState(serviceID: String) throws -> String? {
        try Self.journaledState(journalPath, serviceID: serviceID)
    }

    static func journaledState(_ journalPath: String, serviceID: String) throws -> String? {
        let queue = try DatabaseQueue(path: journalPath)
        return try queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT state FROM networkedAttempt WHERE serviceID = ?", arguments: [serviceID])
        }
    }

    @Test func theStatusNamesTheNetworkedTerminalUntilAReaderTakesItsPlace() async throws {
        let terminal = try await connected(NexoTerminalDouble { _, _ in .lost })
        let status = await terminal.status
        #expect(status.device == .networkedTerminal(poiID: "V400m-123456789"))
        #expect(!status.isLoggedIn && !status.isBusy && !status.isOfflineOnly)
        await terminal.disconnect()
        #expect(await terminal.status.device == TerminalStatus.Device.none)
    }

    @Test func anApprovedSaleIsJournaledFirstAndMapsTheTerminalsAnswer() async throws {
        let journalStates = Mutex<[String?]>([])
        let path = journalPath
        let double = NexoTerminalDouble { request, _ in
            let state = try? Self.journaledState(path, serviceID: request.messageHeader.serviceID ?? "")
            journalStates.withLock { $0.append(state) }
            return .response(
                NexoTerminalDouble.message(
                    request,
                    NexoTerminalDouble.payment(
                        request, fields: [KeyValueField(name: "responseCode", value: "00")])))
        }
        let terminal = try await connected(double)
        let result = try await terminal.sale(
            PaymentParameters(amount: 1234, currency: .eur, externalID: "order-7"))
        #expect(result.status == .approved)
        #expect(result.kind == .sale)
        #expect(result.approvedAmount == 1234 && result.requestedAmount == 1234 && result.currency == .eur)
        #expect(result.transactionID?.rawValue == "TX-1")
        #expect(
            result.maskedPAN == "411111******1111" && result.scheme == "visa" && result.entryMode == .chip)
        #expect(result.authorizationCode == "123456" && result.responseCode == "00" && result.cvm == .pin)
        #expect(!result.recovered)
        let sent = try #require(double.received.first)
        #expect(sent.messageHeader.poiID == "V400m-123456789" && sent.messageHeader.saleID == "till-1")
        let payment = try #require(sent.paymentRequest)
        #expect(
            payment.paymentTransaction.amountsReq.requestedAmount == NexoAmount(Decimal(string: "12.34")!))
        #expect(payment.paymentTransaction.amountsReq.currency == "EUR")
        #expect(payment.saleData.saleTransactionID.transactionID == "order-7")
        #expect(payment.paymentData?.paymentType == nil)
        let serviceID = try #require(sent.messageHeader.serviceID)
        #expect(serviceID.count == 10)
        // The attempt was on disk before the terminal saw the request, and is finished after.
        #expect(journalStates.withLock { $0 } == ["sent"])
        #expect(try journaledState(serviceID: serviceID) == "finished")
        #expect(result.idempotencyKey == NexoSession.key(for: .init(saleID: "till-1", serviceID: serviceID)))
    }

    @Test func aRefusalIsDeclinedWithTheSandboxCodeAndTheRefusalReason() async throws {
        let double = NexoTerminalDouble { request, _ in
            .response(
                NexoTerminalDouble.message(
                    request,
                    NexoTerminalDouble.payment(
                        request, result: .failure, condition: .refusal,
                        fields: [
                            KeyValueField(name: "message", value: "NOT_ENOUGH_BALANCE"),
                            KeyValueField(name: "refusalReason", value: "210 Not enough balance"),
                        ])))
        }
        let terminal = try await connected(double)
        let result = try await terminal.refundUnreferenced(PaymentParameters(amount: 10_124, currency: .eur))
        #expect(result.status == .declined)
        #expect(result.kind == .refund)
        #expect(result.responseCode == "51")
        #expect(result.refusalReason == "210 Not enough balance")
        #expect(result.approvedAmount == 0)
        #expect(double.received.first?.paymentRequest?.paymentData?.paymentType == .refund)
    }

    @Test func aLostAnswerIsAskedForUntilTheTerminalRepeatsIt() async throws {
        // The payment's answer is lost; TransactionStatus says InProgress, then repeats the response.
        let double = NexoTerminalDouble { request, index in
            switch index {
            case 0: return .lost
            case 1: return .response(NexoTerminalDouble.status(request, condition: .inProgress))
            default: return .lost
            }
        }
        let terminal = try await connected(double)
        // Unstructured: the sale waits on the manual clock while the test moves it.
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 500, currency: .eur)) }
        await clock.waitForSleepers(1)
        let payment = try #require(double.received.first)
        double.answer { request, _ in
            .response(NexoTerminalDouble.status(request, repeating: NexoTerminalDouble.payment(payment)))
        }
        clock.advance(by: .milliseconds(500))
        let result = try await sale.value
        #expect(result.status == .approved && result.recovered)
        #expect(result.transactionID?.rawValue == "TX-1")
        #expect(double.count(.payment) == 1)
        #expect(double.count(.transactionStatus) == 2)
        let asked = try #require(double.received.last?.transactionStatusRequest?.messageReference)
        #expect(asked.serviceID == payment.messageHeader.serviceID && asked.saleID == "till-1")
        #expect(asked.messageCategory == .payment)
        #expect(try journaledState(serviceID: payment.messageHeader.serviceID ?? "") == "finished")
    }

    @Test func notFoundMeansThePaymentNeverHappened() async throws {
        let double = NexoTerminalDouble { request, index in
            index == 0 ? .http(500) : .response(NexoTerminalDouble.status(request, condition: .notFound))
        }
        let terminal = try await connected(double)
        let result = try await terminal.sale(PaymentParameters(amount: 700, currency: .eur))
        #expect(result.status == .failed)
        #expect(result.error?.code == MPOSError.Code.networkedTerminalRefused)
        #expect(result.error?.message.contains("nothing was charged") == true)
        #expect(double.count(.payment) == 1)
        #expect(try journaledState(serviceID: double.received[0].messageHeader.serviceID ?? "") == "finished")
    }

    @Test func anOutcomeStillUnknownStaysUnfinishedUntilRecoverySettlesIt() async throws {
        let double = NexoTerminalDouble { _, _ in .lost }
        let terminal = try await connected(double, deadline: .zero)
        let result = try await terminal.sale(PaymentParameters(amount: 900, currency: .eur))
        #expect(result.status == .failed)
        #expect(result.error?.code == MPOSError.Code.networkedTerminalOutcomeUnknown)
        let payment = try #require(double.received.first)
        #expect(try journaledState(serviceID: payment.messageHeader.serviceID ?? "") == "sent")
        // The terminal is back: recovery asks once and records the outcome; nothing is paid twice.
        double.answer { request, _ in
            .response(NexoTerminalDouble.status(request, repeating: NexoTerminalDouble.payment(payment)))
        }
        let recovered = try await terminal.recovery.recoverUnfinishedAttempts()
        #expect(recovered.count == 1)
        #expect(recovered.first?.finding == .outcome(.approved) && recovered.first?.resolution == .recorded)
        #expect(recovered.first?.attempt.transactionID?.rawValue == "TX-1")
        #expect(recovered.first?.attempt.amount == 900)
        #expect(double.count(.payment) == 1)
        #expect(try journaledState(serviceID: payment.messageHeader.serviceID ?? "") == "finished")
        #expect(try await terminal.recovery.recoverUnfinishedAttempts().isEmpty)
    }

    @Test func cancelAbortsTheRunningPaymentByItsMessageReference() async throws {
        let (aborts, abortSink) = AsyncStream.makeStream(of: SaleToPOIRequest.self)
        let double = NexoTerminalDouble { request, _ in
            if request.abortRequest != nil {
                abortSink.yield(request)
                return .empty
            }
            // The payment waits for the sale system's abort, as a terminal waits for a card.
            for await _ in aborts { break }
            return .response(
                NexoTerminalDouble.message(
                    request,
                    NexoTerminalDouble.payment(
                        request, result: .failure, condition: .aborted,
                        fields: [KeyValueField(name: "message", value: "104 Merchant cancelled")])))
        }
        let terminal = try await connected(double)
        #expect(try await terminal.cancel() == false)
        // Unstructured: the sale waits at the terminal while the test cancels it.
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 8059, currency: .eur)) }
        var arrivals = double.arrivals.makeAsyncIterator()
        let payment = try #require(await arrivals.next())
        #expect(try await terminal.cancel())
        let result = try await sale.value
        #expect(result.status == .cancelled)
        let abort = try #require(double.received.first { $0.abortRequest != nil }?.abortRequest)
        #expect(abort.messageReference.serviceID == payment.messageHeader.serviceID)
        #expect(
            abort.messageReference.saleID == "till-1" && abort.messageReference.messageCategory == .payment)
    }

    @Test func encryptedAnswersMustAuthenticateUnderTheKey() async throws {
        let key = NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "mypassphrase")
        let double = NexoTerminalDouble(key: key) { request, index in
            let answer = NexoTerminalDouble.message(request, NexoTerminalDouble.payment(request))
            return index == 0 ? .response(answer) : .clear(answer)
        }
        let terminal = try await connected(double, key: key)
        let approved = try await terminal.sale(PaymentParameters(amount: 1100, currency: .eur))
        #expect(approved.status == .approved)
        // An answer in clear to an encrypted request is not believed, nor asked about again.
        let clear = try await terminal.sale(PaymentParameters(amount: 1200, currency: .eur))
        #expect(clear.status == .failed)
        #expect(clear.error?.code == MPOSError.Code.networkedTerminalOutcomeUnknown)
        #expect(clear.error?.message.contains("in clear") == true)
        #expect(double.count(.transactionStatus) == 0)
    }

    @Test func refundAndVoidAreReversalsOfTheTerminalsPayment() async throws {
        let double = NexoTerminalDouble { request, _ in
            if let reversal = request.reversalRequest {
                return .response(
                    SaleToPOIResponse(
                        messageHeader: NexoTerminalDouble.header(request),
                        reversalResponse: ReversalResponse(
                            response: Response(result: .success),
                            poiData: POIData(
                                poiTransactionID: TransactionIdentification(
                                    transactionID: "REV-\(request.messageHeader.serviceID ?? "")",
                                    timeStamp: NexoTimestamp(Date()))),
                            reversedAmount: reversal.reversedAmount)))
            }
            return .response(NexoTerminalDouble.message(request, NexoTerminalDouble.payment(request)))
        }
        let terminal = try await connected(double)
        let sale = try await terminal.sale(PaymentParameters(amount: 2000, currency: .eur))
        let id = try #require(sale.transactionID)
        let refund = try await terminal.refund(transactionID: id, amount: 500)
        #expect(refund.status == .approved && refund.kind == .refund && refund.approvedAmount == 500)
        #expect(refund.transactionID?.rawValue.hasPrefix("REV-") == true)
        let void = try await terminal.void(transactionID: id)
        #expect(void.status == .approved && void.kind == .saleVoid && void.approvedAmount == 2000)
        let reversals = double.received.compactMap(\.reversalRequest)
        #expect(reversals.count == 2)
        #expect(reversals.allSatisfy { $0.originalPOITransaction.poiTransactionID?.transactionID == "TX-1" })
        #expect(reversals[0].reversedAmount == NexoAmount(5))
        #expect(reversals[0].saleData?.saleToAcquirerData?["currency"] == "EUR")
        #expect(reversals[1].reversedAmount == nil && reversals[1].saleData == nil)
        await #expect(throws: MPOSError.notFound) {
            try await terminal.void(transactionID: TransactionID(rawValue: "unknown")!)
        }
    }

    @Test func onlySalesAndUnreferencedRefundsGoToANetworkedTerminal() async throws {
        let double = NexoTerminalDouble { _, _ in .lost }
        let terminal = try await connected(double)
        await #expect(throws: MPOSError.invalidArgument) {
            try await terminal.authorize(PaymentParameters(amount: 100, currency: .eur))
        }
        #expect(double.received.isEmpty)
    }

    static func notification(poiID: String = "V400m-123456789") -> SaleToPOIRequest {
        SaleToPOIRequest(
            messageHeader: MessageHeader(
                protocolVersion: "3.0", messageClass: .event, messageCategory: .event,
                messageType: .notification,
                saleID: "till-1", poiID: poiID),
            eventNotification: EventNotification(
                timeStamp: NexoTimestamp(Date()), eventToNotify: .beginMaintenance,
                eventDetails: "Maintenance window started"))
    }

    @Test func aNotificationOfTheConnectedTerminalBecomesAnEvent() async throws {
        let key = NexoSecurityKey(keyIdentifier: "mykey", keyVersion: 1, passphrase: "mypassphrase")
        let terminal = try await connected(NexoTerminalDouble(key: key) { _, _ in .lost }, key: key)
        let seen = Mutex<[TerminalEvent]>([])
        terminal.events.addHandler([.status]) { event in seen.withLock { $0.append(event) } }
        let crypto = NexoCrypto(key: key)
        let event = try await terminal.terminalAPI.receiveNotification(
            NexoCoder.encode(crypto.encrypt(Self.notification())))
        #expect(
            event == .terminalNotification(event: "BeginMaintenance", details: "Maintenance window started"))
        #expect(seen.withLock { $0 } == [event])
        // In clear, from another terminal, or not JSON: refused, nothing emitted.
        await #expect(throws: MPOSError.terminalAPIMessageInvalid) {
            try await terminal.terminalAPI.receiveNotification(NexoCoder.encode(Self.notification()))
        }
        await #expect(throws: MPOSError.terminalAPIMessageInvalid) {
            try await terminal.terminalAPI.receiveNotification(
                NexoCoder.encode(crypto.encrypt(Self.notification(poiID: "P400Plus-1"))))
        }
        await #expect(throws: MPOSError.terminalAPIMessageInvalid) {
            try await terminal.terminalAPI.receiveNotification(Data("not json".utf8))
        }
        #expect(seen.withLock { $0 }.count == 1)
    }
}

/// A gateway transport that fails the test when used: networked terminals need no gateway.
struct NoGateway: GatewayTransport {
    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        Issue.record("the gateway was asked: \(request.method) \(request.path)")
        throw GatewayTransportError(reason: "no gateway", isPermanent: true)
    }
}
