import EMV
import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore
import ReaderSimulator
import SandboxCards
import SandboxGateway
import Synchronization
import Testing

/// Payments over real HTTP on a loopback port with a file database, with authorisation data
/// made by the reader simulator's EMV kernel.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct PaymentHTTPTests {
    /// A card authorisation request for `card`, with fresh kernel output.
    static func authorize(
        _ card: SandboxCard, amount: Int64, kind: CardPaymentKind = .sale, currency: Currency = .eur,
        duplicateCheck: Bool = true, allowPartial: Bool = false, captureMode: CaptureMode = .completedSale,
        descriptor: String? = nil, externalID: String? = nil
    ) throws -> AuthorizeCardRequest {
        let data = try SimulatedTerminal.authorization(
            card: card, amount: amount, currency: currency, kind: kind.transactionKind)
        return AuthorizeCardRequest(
            kind: kind,
            parameters: PaymentParameters(
                amount: amount, currency: currency, externalID: externalID, statementDescriptor: descriptor,
                duplicateCheck: duplicateCheck, allowPartialApproval: allowPartial, captureMode: captureMode),
            emvData: Hex.encode(data.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
            ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm)
    }

    static func key() -> String { IdempotencyKey().rawValue }

    /// Posts `value` with a fresh idempotency key and decodes a transaction when 200.
    static func post<T: Encodable>(
        _ harness: GatewayHarness, _ path: String, _ value: T, token: String, key: String = key()
    ) async throws -> GatewayHarness.Reply {
        try await harness.send(.post, path, json: value, token: token, idempotencyKey: key)
    }

    @Test(arguments: GatewayTestEngine.allCases) func saleAuthCaptureTipVoidRefund(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let visa = SimulatedTerminal.card("visa-credit")

            // Sale: authorised and captured at once, card masked, ARPC back for the card.
            let sale = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 12_34, descriptor: "Coffee Shop"),
                token: token)
            #expect(sale.status == 200)
            let saleTx = try sale.decode(Transaction.self)
            #expect(
                saleTx.status == .approved && saleTx.approvedAmount == 1234 && saleTx.responseCode == "00")
            #expect(saleTx.card?.maskedPAN == "411111******1111")
            #expect(saleTx.issuerAuthenticationData != nil && saleTx.authorizationCode?.count == 6)
            #expect(saleTx.statementDescriptor == "COFFEE SHOP")

            // Authorisation, partial capture, no second capture.
            let auth = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 50_00, kind: .authorization),
                token: token)
            let authTx = try auth.decode(Transaction.self)
            #expect(authTx.kind == .authorization && authTx.status == .approved)
            let capturePath = GatewayPaths.transaction(GatewayPaths.capture, id: authTx.id.rawValue)
            let capture = try await Self.post(
                harness, capturePath, CaptureRequest(amount: 40_00), token: token)
            #expect(capture.status == 200)
            #expect(try capture.decode(Transaction.self).kind == .capture)
            let again = try await Self.post(harness, capturePath, CaptureRequest(amount: nil), token: token)
            #expect(again.status == 409 && again.error?.code == GatewayErrorCode.invalidState)
            let tooMuch = try await Self.post(
                harness, GatewayPaths.transaction(GatewayPaths.capture, id: authTx.id.rawValue),
                CaptureRequest(amount: 1),
                token: token)
            #expect(tooMuch.status == 409)

            // Refunds: partial, then more than remains.
            let refundPath = GatewayPaths.transaction(GatewayPaths.refund, id: authTx.id.rawValue)
            let refund = try await Self.post(harness, refundPath, RefundRequest(amount: 15_00), token: token)
            #expect(refund.status == 200)
            #expect(try refund.decode(Transaction.self).kind == .refund)
            let overRefund = try await Self.post(
                harness, refundPath, RefundRequest(amount: 25_01), token: token)
            #expect(overRefund.status == 422 && overRefund.error?.code == GatewayErrorCode.declinedValidation)

            // Tip adjustment on a tip-adjustable sale, refused on a plain one.
            let tipSale = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 20_50, captureMode: .tipAdjustment), token: token)
            let tipID = try tipSale.decode(Transaction.self).id.rawValue
            let tip = try await Self.post(
                harness, GatewayPaths.transaction(GatewayPaths.tipAdjust, id: tipID),
                TipAdjustRequest(tipAmount: 3_00),
                token: token)
            #expect(tip.status == 200)
            #expect(try tip.decode(Transaction.self).tipAmount == 300)
            let noTip = try await Self.post(
                harness, GatewayPaths.transaction(GatewayPaths.tipAdjust, id: saleTx.id.rawValue),
                TipAdjustRequest(tipAmount: 1_00), token: token)
            #expect(noTip.status == 409)

            // Void of the sale, then the sale is reversed and cannot be voided again.
            let voidPath = GatewayPaths.transaction(GatewayPaths.void, id: saleTx.id.rawValue)
            let void = try await Self.post(harness, voidPath, VoidRequest(), token: token)
            #expect(void.status == 200)
            #expect(try void.decode(Transaction.self).kind == .saleVoid)
            let fetched = try await harness.send(
                .get, GatewayPaths.transaction(id: saleTx.id.rawValue), token: token)
            #expect(try fetched.decode(Transaction.self).status == .reversed)
            #expect(try await Self.post(harness, voidPath, VoidRequest(), token: token).status == 409)

            // Batch close: tips freeze, voids become impossible, reversals still work.
            let close = try await harness.send(
                .post, GatewayPaths.closeBatch, token: token, idempotencyKey: Self.key())
            #expect(close.status == 200)
            let batch = try close.decode(Batch.self)
            let net = try #require(batch.totals.first?.netAmount)
            #expect(net == Int64(40_00 + 20_50 + 3_00 - 15_00), "batch totals \(batch.totals)")
            let lateTip = try await Self.post(
                harness, GatewayPaths.transaction(GatewayPaths.tipAdjust, id: tipID),
                TipAdjustRequest(tipAmount: 4_00),
                token: token)
            #expect(lateTip.status == 409)
            let reverse = try await Self.post(
                harness, GatewayPaths.transaction(GatewayPaths.reverse, id: tipID),
                ReverseRequest(reason: .merchantRequest),
                token: token)
            #expect(reverse.status == 200)
            #expect(try reverse.decode(Transaction.self).status == .reversed)

            // Unreferenced refund, cash, receipt data and sending.
            let credit = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 7_00, kind: .refundUnreferenced),
                token: token)
            #expect(try credit.decode(Transaction.self).kind == .refund)
            let cash = try await Self.post(
                harness, GatewayPaths.cashPayment, CashPaymentRequest(amount: 9_99, currency: .eur),
                token: token)
            let cashTx = try cash.decode(Transaction.self)
            #expect(cashTx.kind == .cash && cashTx.status == .approved)
            let receipt = try await harness.send(
                .get, GatewayPaths.transaction(GatewayPaths.receipt, id: tipID), token: token)
            let receiptData = try receipt.decode(ReceiptData.self)
            #expect(receiptData.tipAmount == 300 && receiptData.card?.maskedPAN == "411111******1111")
            let send = try await harness.send(
                .post, GatewayPaths.transaction(GatewayPaths.sendReceipt, id: tipID),
                json: SendReceiptRequest(channel: .email, address: "buyer@example.org"), token: token)
            #expect(send.status == 202)
            let outbox = try await harness.send(.get, GatewayPaths.outbox, token: token)
            #expect(String(decoding: outbox.body, as: UTF8.self).contains("411111******1111"))
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func declinesPartialApprovalAndDuplicates(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let visa = SimulatedTerminal.card("visa-credit")
            for (amount, code) in [
                (Int64(10_00), "05"), (1_124, "51"), (1_125, "62"), (1_126, "54"), (1_127, "13"),
            ] {
                let reply = try await Self.post(
                    harness, GatewayPaths.authorizeCard, try Self.authorize(visa, amount: amount),
                    token: token)
                let tx = try reply.decode(Transaction.self)
                #expect(tx.status == .declined && tx.responseCode == code, "amount \(amount)")
                #expect(tx.approvedAmount == 0 && tx.authorizationCode == nil)
            }
            for id in ["expired", "blocked"] {
                let tx = try await Self.post(
                    harness, GatewayPaths.authorizeCard,
                    try Self.authorize(SimulatedTerminal.card(id), amount: 5_00),
                    token: token
                ).decode(Transaction.self)
                #expect(tx.status == .declined, "\(id)")
            }

            // visa-debit holds 500.00: 600.00 is declined without partial approval, half-approved with.
            let debit = SimulatedTerminal.card("visa-debit")
            let refused = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(debit, amount: 600_00), token: token
            ).decode(Transaction.self)
            #expect(refused.status == .declined)
            let partial = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(debit, amount: 600_00, allowPartial: true),
                token: token
            ).decode(Transaction.self)
            #expect(partial.status == .partiallyApproved && partial.approvedAmount == 500_00)

            // Duplicate: same card, amount and currency within 5 minutes.
            let first = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(visa, amount: 33_33), token: token)
            #expect(first.status == 200)
            let duplicate = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(visa, amount: 33_33), token: token)
            #expect(duplicate.status == 409 && duplicate.error?.code == GatewayErrorCode.duplicatePayment)
            // The refusal names the body that works, and that body (below) is accepted.
            #expect(duplicate.error?.message.contains(#""duplicateCheck": false"#) == true, "\(duplicate.error?.message ?? "")")
            let allowed = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 33_33, duplicateCheck: false),
                token: token)
            #expect(allowed.status == 200)
            harness.clock.advance(by: 301)
            let later = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(visa, amount: 33_33), token: token)
            #expect(later.status == 200)

            // Rule violations and tampered data.
            let badDescriptor = try await Self.post(
                harness, GatewayPaths.authorizeCard,
                try Self.authorize(visa, amount: 1_00, descriptor: "<b>"),
                token: token)
            #expect(badDescriptor.status == 400 && badDescriptor.error?.code == GatewayErrorCode.invalidValue)
            var tampered = try Self.authorize(visa, amount: 2_00)
            tampered.parameters.amount = 2_01
            let tamperedReply = try await Self.post(
                harness, GatewayPaths.authorizeCard, tampered, token: token)
            // The cryptogram no longer covers the amount: the issuer declines it (13, invalid amount).
            #expect(tamperedReply.status == 200)
            #expect((try? tamperedReply.decode(Transaction.self))?.responseCode == "13")
            var garbled = try Self.authorize(visa, amount: 2_02)
            garbled.encryptedCardData = String(repeating: "00", count: 48)
            let garbledReply = try await Self.post(harness, GatewayPaths.authorizeCard, garbled, token: token)
            #expect(
                garbledReply.status == 422 && garbledReply.error?.code == GatewayErrorCode.declinedValidation)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aCardsSpendCountsPerUTCDaySoASharedSandboxNeverRunsItDry(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let debit = SimulatedTerminal.card("visa-debit")
            // visa-debit holds 500.00 a day: today's 450.00 leaves too little for 100.00 …
            let first = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(debit, amount: 450_00), token: token
            ).decode(Transaction.self)
            #expect(first.status == .approved)
            let over = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(debit, amount: 100_00), token: token
            ).decode(Transaction.self)
            #expect(over.status == .declined && over.responseCode == "51")
            // … and the next UTC day the card's balance is whole again.
            harness.clock.advance(by: 86_400)
            let freshToken = try await harness.login()  // the session of yesterday has expired
            let tomorrowReply = try await Self.post(
                harness, GatewayPaths.authorizeCard, try Self.authorize(debit, amount: 100_01), token: freshToken)
            #expect(tomorrowReply.status == 200, "\(String(decoding: tomorrowReply.body, as: UTF8.self))")
            let tomorrow = try tomorrowReply.decode(Transaction.self)
            #expect(tomorrow.status == .approved, "\(tomorrow.responseCode ?? "-") \(tomorrow.acquirerMessage ?? "")")
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func idempotentReplayAndConflict(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let request = try Self.authorize(SimulatedTerminal.card("mastercard-2series"), amount: 4_56)
            let key = Self.key()
            let first = try await Self.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: key)
            let second = try await Self.post(
                harness, GatewayPaths.authorizeCard, request, token: token, key: key)
            #expect(first.status == 200 && second.status == 200 && first.body == second.body)
            #expect(second.header(GatewayHeaders.idempotentReplayed) == "true")
            let missingKey = try await harness.send(
                .post, GatewayPaths.authorizeCard, json: request, token: token)
            #expect(missingKey.status == 400 && missingKey.error?.code == GatewayErrorCode.invalidHeader)
        }
    }

    /// A cash payment's cardholder name is kept and given back, on both engines; one the
    /// contract does not allow is refused with 4001 and nothing is recorded.
    @Test(arguments: GatewayTestEngine.allCases) func aCashPaymentKeepsItsCardholderName(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let kept = try await Self.post(
                harness, GatewayPaths.cashPayment,
                CashPaymentRequest(amount: 7_00, currency: .eur, cardholderName: "Grace Hopper"), token: token)
            #expect(kept.status == 200)
            let transaction = try kept.decode(Transaction.self)
            #expect(transaction.cardholderName == "Grace Hopper" && transaction.card == nil)
            for name in ["", String(repeating: "x", count: 46), "tab\there"] {
                let refused = try await Self.post(
                    harness, GatewayPaths.cashPayment,
                    CashPaymentRequest(amount: 7_01, currency: .eur, cardholderName: name), token: token)
                #expect(refused.status == 400 && refused.error?.code == GatewayErrorCode.invalidValue, "\(name)")
            }
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func malformedJSONOnEveryBodyRouteIsA4xxJSON(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let id = "txn_000000000000000000000000"
            let routes: [(HTTPRequest.Method, String)] = [
                (.post, GatewayPaths.authorizeCard), (.post, GatewayPaths.cashPayment),
                (.post, GatewayPaths.sepaPayment),
                (.post, GatewayPaths.transaction(GatewayPaths.capture, id: id)),
                (.post, GatewayPaths.transaction(GatewayPaths.tipAdjust, id: id)),
                (.post, GatewayPaths.transaction(GatewayPaths.void, id: id)),
                (.post, GatewayPaths.transaction(GatewayPaths.reverse, id: id)),
                (.post, GatewayPaths.transaction(GatewayPaths.refund, id: id)),
                (.post, GatewayPaths.transaction(GatewayPaths.sendReceipt, id: id)),
                (.post, GatewayPaths.searchTransactions), (.post, GatewayPaths.statistics),
                (.put, GatewayPaths.inventory), (.put, GatewayPaths.webhookConfig),
            ]
            let amountRoutes: Set<String> = [
                GatewayPaths.authorizeCard, GatewayPaths.cashPayment, GatewayPaths.sepaPayment,
                GatewayPaths.transaction(GatewayPaths.capture, id: id),
                GatewayPaths.transaction(GatewayPaths.refund, id: id),
            ]
            for (method, path) in routes {
                var bodies = ["{", "[1,2", "null", "\u{FF}", "not json"]
                if amountRoutes.contains(path) { bodies.append("{\"amount\": \"ten\"}") }
                for body in bodies {
                    let reply = try await harness.send(
                        method, path, body: Data(body.utf8), token: token, idempotencyKey: Self.key())
                    #expect((400..<500).contains(reply.status), "\(method) \(path) \(body): \(reply.status)")
                    #expect(reply.error != nil, "\(method) \(path) \(body): not a JSON error body")
                }
            }
        }
    }
}
