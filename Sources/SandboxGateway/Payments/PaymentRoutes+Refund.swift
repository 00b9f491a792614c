import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore

/// `POST /v1/transactions/{id}/refund`: decided at once (200), or with the merchant's
/// asynchronous refunds on, accepted as received (202 with the pending refund). Either answer
/// is stored with the idempotency key, in the refund's own transaction, so a retry gets the
/// same bytes and status.
func refundRoute(
    _ request: Request, _ context: GatewayRequestContext, _ environment: GatewayEnvironment,
    _ service: PaymentService
) async throws -> Response {
    let merchant = try context.requireMerchant()
    let id = try transactionID(context)
    var request = request
    let (input, body) = try await decodeBody(&request, context: context, for: GatewayRoutes.refund, emptyAs: "{}")
    // The refund and its idempotency record commit in one transaction: a gateway killed
    // between them leaves neither, never a key "in progress" over a refund already made.
    let key = try context.requireIdempotencyKey(request).rawValue
    let asynchronous = try await service.asynchronousRefunds(merchant: merchant)
    let time = service.now()
    let (response, recorded) = try await environment.idempotency.idempotentWrite(
        request: request, context: context, body: body
    ) { db in
        let (refund, rows, webhook) = try mappedNow {
            try PaymentService.recordRefund(
                db, merchant: merchant, id: id, amount: input.amount, asynchronous: asynchronous, at: time,
                idempotencyKey: key)
        }
        let status: HTTPResponse.Status = refund.status == .pending ? .accepted : .ok
        return (status, try GatewayResponse.jsonData(refund.apiTransaction), (rows: rows, webhook: webhook))
    }
    if let recorded { await service.webhooks?.notify(recorded.rows, config: recorded.webhook) }
    return response
}
