import EMV
import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore

/// Registers the payment routes (``GatewayRoutes/payments``): card authorisation (sale,
/// authorisation, pre-authorisation, unreferenced refund), cash, SEPA, capture, tip, void,
/// reverse, refund, transaction lookup, receipt data, receipt sending and batch close.
///
/// Every route that moves money runs through the core's idempotency helper with the
/// `Idempotency-Key` header; the body is decoded first, so a malformed body (4000/4001)
/// never uses up a key.
public func addPaymentRoutes(to router: Router<GatewayRequestContext>, environment: GatewayEnvironment) {
    let domain = PaymentDomain(environment: environment)
    let service = domain.payments

    router.on(GatewayRoutes.authorizeCard) { request, context in
        let merchant = try context.requireMerchant()
        var request = request
        let (input, body) = try await decodeBody(&request, context: context, for: GatewayRoutes.authorizeCard)
        let command = try CardPaymentCommand(input)
        let key = try context.requireIdempotencyKey(request).rawValue
        // The CPU work (rules, DUKPT, ARQC) runs here, concurrently; the idempotency record,
        // the decision and the ledger row then share one transaction (and one fsync with the
        // other requests of its group). A refusal is stored with the key like any answer.
        var checked: Result<PreparedAuthorization, GatewayError>
        do {
            checked = .success(try service.prepareAuthorization(merchant: merchant, command))
        } catch let violation as PaymentRuleViolation {
            checked = .failure(GatewayError(code: violation.gatewayCode, violation.message))
        }
        // The callback's host is resolved and held to the destination policy before any charge
        // (and again when the outcome is posted).
        if case .success(let authorization) = checked, let callback = authorization.callbackURL {
            do throws(GatewayError) {
                try await environment.webhookDestinations.check(callback, field: "callbackURL")
            } catch {
                checked = .failure(error)
            }
        }
        let prepared = checked
        // The card's replay counter and spend are rows other sales of the card change too: the
        // write takes its place in its group by the card (``LedgerWriter/write(lockOrder:_:)``).
        let lockOrder: String? =
            switch prepared {
            case .success(let authorization): authorization.fingerprint
            case .failure: nil
            }
        let (response, recorded) = try await environment.idempotency.idempotentWrite(
            request: request, context: context, body: body, lockOrder: lockOrder
        ) { db in
            let inserted = try mappedNow { try prepared.get().record(db, idempotencyKey: key) }
            let status: HTTPResponse.Status = inserted.transaction.status == .pending ? .accepted : .ok
            return (status, try GatewayResponse.jsonData(inserted.transaction.apiTransaction), inserted)
        }
        if let recorded {
            await service.didRecord(
                // A refused preparation recorded nothing, so it has no callback to post.
                recorded.transaction, webhook: recorded.webhook, callback: try? prepared.get().callbackURL)
        }
        return response
    }

    router.on(GatewayRoutes.cashPayment) { request, context in
        let merchant = try context.requireMerchant()
        var request = request
        let (input, body) = try await decodeBody(&request, context: context, for: GatewayRoutes.cashPayment)
        let command = try CashCommand(input)
        let key = try context.requireIdempotencyKey(request).rawValue
        return try await environment.idempotency.idempotent(request: request, context: context, body: body) {
            try await answer { try await service.cash(merchant: merchant, command, idempotencyKey: key).apiTransaction }
        }
    }

    router.on(GatewayRoutes.sepaPayment) { request, context in
        let merchant = try context.requireMerchant()
        var request = request
        let (input, body) = try await decodeBody(&request, context: context, for: GatewayRoutes.sepaPayment)
        let command = try SEPACommand(input)
        let key = try context.requireIdempotencyKey(request).rawValue
        return try await environment.idempotency.idempotent(request: request, context: context, body: body) {
            try await answer { try await service.sepa(merchant: merchant, command, idempotencyKey: key).apiTransaction }
        }
    }

    router.on(GatewayRoutes.transaction) { request, context in
        let merchant = try context.requireMerchant()
        let id = try transactionID(context)
        return try context.respond(
            to: request,
            with:
                try await mapped { try await service.transaction(merchant: merchant, id: id) }.apiTransaction)
    }

    router.on(GatewayRoutes.capture) { request, context in
        try await followUp(request, context, environment, service, GatewayRoutes.capture, answersOriginal: false) {
            merchant, input in PaymentService.captureChange(merchant: merchant, amount: input.amount)
        }
    }
    router.on(GatewayRoutes.tipAdjust) { request, context in
        try await followUp(request, context, environment, service, GatewayRoutes.tipAdjust, answersOriginal: true) {
            _, input in PaymentService.tipChange(tip: input.tipAmount)
        }
    }
    router.on(GatewayRoutes.void) { request, context in
        try await followUp(request, context, environment, service, GatewayRoutes.void, answersOriginal: false) { _, _ in
            PaymentService.voidChange(reversal: false)
        }
    }
    router.on(GatewayRoutes.reverse) { request, context in
        try await followUp(request, context, environment, service, GatewayRoutes.reverse, answersOriginal: true) { _, _ in
            PaymentService.voidChange(reversal: true)
        }
    }
    router.on(GatewayRoutes.refund) { request, context in
        try await refundRoute(request, context, environment, service)
    }

    router.on(GatewayRoutes.receipt) { request, context in
        let merchant = try context.requireMerchant()
        let id = try transactionID(context)
        let (row, lines) = try await mapped { try await service.receiptRecord(merchant: merchant, id: id) }
        let info = try await environment.accounts.merchantInfo(merchantID: merchant, userID: nil)
        return try context.respond(to: request, with: row.receiptData(merchant: info, lines: lines))
    }

    router.on(GatewayRoutes.uploadSignature) { request, context in
        let merchant = try context.requireMerchant()
        let id = try transactionID(context)
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.uploadSignature)
        guard input.looksLikePNG, input.png.count <= PaymentService.maximumSignatureSize else {
            throw GatewayError.invalid(
                "png must be a PNG image (starting with its 8-byte signature) of at most \(PaymentService.maximumSignatureSize) bytes.")
        }
        try await mapped { try await service.storeSignature(merchant: merchant, id: id, png: input.png) }
        return try context.respond(to: request, with: Acknowledgement(message: "Signature stored."))
    }

    router.on(GatewayRoutes.signature) { request, context in
        let merchant = try context.requireMerchant()
        let id = try transactionID(context)
        guard let png = try await mapped({ try await service.signature(merchant: merchant, id: id) }) else {
            throw GatewayError.notFound("Transaction \(id) has no signature.")
        }
        return try context.respond(to: request, with: SignatureImage(png: png))
    }

    router.on(GatewayRoutes.sendReceipt) { request, context in
        let merchant = try context.requireMerchant()
        let id = try transactionID(context)
        let input = try await decodeBody(request, context: context, for: GatewayRoutes.sendReceipt)
        let (row, lines) = try await mapped { try await service.receiptRecord(merchant: merchant, id: id) }
        let address = input.address
        switch input.channel {
        case .email where !GatewayValidation.isEmailAddress(address):
            throw GatewayError.invalid(
                "address is not an e-mail address (a local part, @ and a domain with a dot; no spaces; "
                    + "at most \(GatewayValidation.emailMaximumLength) characters).")
        case .sms where !GatewayValidation.isPhoneNumber(address):
            throw GatewayError.invalid(
                "address is not a phone number (6 to 15 digits; + ( ) - and spaces between them).")
        default: break
        }
        let info = try await environment.accounts.merchantInfo(merchantID: merchant, userID: nil)
        let receipt = row.receiptData(merchant: info, lines: lines)
        try await environment.accounts.writeOutbox(
            merchantID: merchant, channel: input.channel, recipient: address,
            subject: input.channel == .email ? "Your receipt from \(info.name)" : "",
            body: ReceiptText.render(receipt))
        return try context.respond(
            to: request,
            with:
                Acknowledgement(message: "Receipt queued to the outbox."), status: .accepted)
    }

    router.on(GatewayRoutes.closeBatch) { request, context in
        let merchant = try context.requireMerchant()
        var request = request
        let body = try await readBody(&request, context: context)
        return try await environment.idempotency.idempotent(request: request, context: context, body: body) {
            try await answer { try await service.closeBatchSummary(merchant: merchant) }
        }
    }
}

/// Runs a follow-up route: merchant, path id, decoded body, then the follow-up and its
/// idempotency record in one transaction (so that a gateway killed between them leaves
/// neither), answering the original or the follow-up row; webhooks go out once it has committed.
private func followUp<Input: Decodable & Sendable>(
    _ request: Request, _ context: GatewayRequestContext, _ environment: GatewayEnvironment,
    _ service: PaymentService, _ endpoint: GatewayEndpoint<Input, Transaction>,
    answersOriginal: Bool,
    _ change: (String, Input) -> PaymentService.FollowUpChange
) async throws -> Response {
    let merchant = try context.requireMerchant()
    let id = try transactionID(context)
    var request = request
    let (input, body) = try await decodeBody(&request, context: context, for: endpoint, emptyAs: "{}")
    let key = try context.requireIdempotencyKey(request).rawValue
    let change = change(merchant, input)
    let time = service.now()
    let (response, record) = try await environment.idempotency.idempotentWrite(
        request: request, context: context, body: body
    ) { db in
        let record = try mappedNow {
            try PaymentService.recordFollowUp(
                db, merchant: merchant, id: id, at: time, idempotencyKey: key, change: change)
        }
        return (.ok, try GatewayResponse.jsonData((answersOriginal ? record.original : record.followUp).apiTransaction), record)
    }
    if let record { await service.notify(record) }
    return response
}

/// The `{id}` path parameter.
func transactionID(_ context: GatewayRequestContext) throws(GatewayError) -> String {
    guard let id = context.parameters.get("id"), TransactionID(rawValue: id) != nil else {
        throw GatewayError.notFound("No such transaction.")
    }
    return id
}

/// Runs `work`, turning a broken payment rule into its gateway error.
func mapped<T>(_ work: () async throws -> T) async throws -> T {
    do { return try await work() } catch let violation as PaymentRuleViolation {
        throw GatewayError(code: violation.gatewayCode, violation.message)
    }
}

/// Runs `work` now, turning a broken payment rule into its gateway error.
func mappedNow<T>(_ work: () throws -> T) throws -> T {
    do { return try work() } catch let violation as PaymentRuleViolation {
        throw GatewayError(code: violation.gatewayCode, violation.message)
    }
}

/// Runs `work` and encodes its value as a 200 answer for the idempotency store.
func answer<T: Encodable>(_ work: () async throws -> T) async throws -> (HTTPResponse.Status, Data) {
    let value = try await mapped(work)
    return (.ok, try GatewayResponse.jsonData(value))
}

/// Checks a payment's basket and instalment plan with ``GatewayValidation``'s rules, the ones
/// the SDK applies before sending.
/// - Throws: 4001 naming the broken rule.
func validateOrderDetails(basket: Basket?, installments: Installments?, amount: Int64) throws(GatewayError) {
    if let basket, let problem = GatewayValidation.basketProblem(basket, amount: amount) {
        throw GatewayError.invalid("\(problem).")
    }
    if let installments, let problem = GatewayValidation.installmentsProblem(installments) {
        throw GatewayError.invalid("\(problem).")
    }
}
