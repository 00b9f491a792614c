import Foundation
import GatewayAPI
import Hummingbird
import MPOSCore

/// `POST /v1/transactions/{id}/refund`: decided at once (200), or with the merchant's
/// asynchronous refunds on, accepted as received (202 with the pending refund). Either answer
/// is stored with the idempotency key, so a retry gets the same bytes and status.
func refundRoute(
    _ request: Request, _ context: GatewayRequestContext, _ environment: GatewayEnvironment,
    _ service: PaymentService
) async throws -> Response {
    let merchant = try context.requireMerchant()
    let id = try transactionID(context)
    var request = request
    let (input, body) = try await decodeBody(&request, context: context, for: GatewayRoutes.refund, emptyAs: "{}")
    return try await environment.idempotency.idempotent(request: request, context: context, body: body) {
        let refund = try await mapped {
            try await service.refundAsConfigured(merchant: merchant, id: id, amount: input.amount)
        }
        let status: HTTPResponse.Status = refund.status == .pending ? .accepted : .ok
        return (status, try GatewayResponse.jsonData(refund.apiTransaction))
    }
}
