import GatewayAPI

/// The rule for gateway requests.
typealias GatewayDelivery = LookupThenResend<GatewayAnswer>

/// The gateway's answers and lookups in the rule's terms.
extension LookupThenResend where Answer == GatewayAnswer {
    /// Whether `answer` settles the request: a transaction, or a refusal that is the gateway's
    /// last word. A server error or "still in progress" says nothing of whether it was done.
    static func isFinal(_ answer: GatewayAnswer) -> Bool {
        guard case .refused(let status, let body) = answer else { return true }
        return status < 500 && body.code != GatewayErrorCode.idempotencyInProgress
    }

    /// What an answer to the request (or a resend) tells the rule.
    static func event(answer: GatewayAnswer) -> Event { isFinal(answer) ? .answered(answer) : .unanswered }

    /// What a lookup by the key tells the rule.
    static func event(_ lookup: AttemptLookup) -> Event {
        switch lookup {
        case .found(let answer): .found(answer)
        case .notFound: .notFound
        case .inProgress: .pending("the gateway is still processing it")
        case .unreachable: .pending("the gateway could not be reached")
        case .sessionRefused: .hopeless("the gateway refused the session and a new login")
        }
    }
}
