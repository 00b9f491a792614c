import GatewayAPI
import MPOSCore

// The idempotent requests that recovery, reversals and follow-ups share: sent under a key until
// the answer is known, retried as `RetryPolicy` says.
extension GatewayClient {
    /// Sends with `key` until the answer is known, by the lookup-then-resend rule
    /// (``LookupThenResend``): a lost answer is looked up by key, and the request is sent
    /// again only when the gateway never saw it, as `retry` says. Nil when unknowable now.
    func idempotent<Body: Encodable & Sendable>(
        _ endpoint: GatewayEndpoint<Body, Transaction>, id: String? = nil, body: Body, key: IdempotencyKey,
        retry: RetryPolicy = .standard
    ) async -> GatewayAnswer? {
        var rule = GatewayDelivery(policy: retry)
        var step = rule.start
        while true {
            switch step {
            case .send:
                do {
                    step = rule.handle(GatewayDelivery.event(answer: try await send(endpoint, id: id, body: body, key: key)))
                } catch {
                    step = rule.handle(.unanswered)
                }
            case .lookUp(let pause):
                // A cancelled pause looks up at once, which is what a cancel wants.
                if pause > .zero { try? await clock.sleep(for: pause) }
                step = rule.handle(GatewayDelivery.event(await lookup(key)))
            case .settled(let answer): return answer
            case .neverArrived, .unknown: return nil
            }
        }
    }

    /// Reverses idempotently; true once the gateway confirmed (or the transaction can no
    /// longer be reversed), false when it could not be asked.
    func reverse(_ id: TransactionID, key: IdempotencyKey, reason: ReversalReason, retry: RetryPolicy = .standard) async
        -> Bool
    {
        await idempotent(GatewayRoutes.reverse, id: id.rawValue, body: ReverseRequest(reason: reason), key: key, retry: retry)
            != nil
    }
}
