/// How a gateway request whose answer was lost is retried.
///
/// A money-moving request is looked up by its idempotency key, with a growing pause between
/// lookups that find nothing yet, and sent again (same key) only when the gateway never saw
/// it. A safe request (login, the merchant, lookups, reports), which changes nothing when
/// repeated, is simply sent again after the same growing pause until a deadline.
///
/// The one policy of the SDK: the payment engine follows it for an authorisation, and the
/// terminal for reversals, gateway-only operations (refunds, voids, captures, tips, cash)
/// and safe requests.
struct RetryPolicy: Sendable, Hashable {
    /// How many lookups without an answer before the caller stops waiting; the journal keeps
    /// the attempt unfinished and a later pass finishes it.
    var maximumLookups: Int
    /// How many times a request the gateway never saw is sent again.
    var maximumResends: Int
    /// How long a safe request is sent again after lost connections before the caller gets
    /// the error.
    /// 15 s by default: long enough to ride out a dropped connection or a gateway restart,
    /// short enough for a person waiting at a till.
    var safeRequestDeadline: Duration = .seconds(15)
    /// How long the pauses between lookups may add up to, beside their count; nil for no
    /// bound but the count. A networked terminal's settlement deadline is one.
    var lookupDeadline: Duration?

    /// Eight lookups spaced 0.5 s to 8 s apart (about 30 s in all), three resends, and safe
    /// requests retried for 15 s.
    static let standard = RetryPolicy(maximumLookups: 8, maximumResends: 3)

    /// The standard policy with a single lookup: for work that must not hold up what comes
    /// next (an earlier attempt finished before a new card payment), where what is left
    /// stays in the journal for later.
    static let oneLookup = RetryPolicy(maximumLookups: 1, maximumResends: standard.maximumResends)

    /// For a sale that may be taken offline: two lookups (0.25 s, 0.5 s) and one resend
    /// before the card decides offline. Waiting longer would not make it safer: the stored
    /// sale is forwarded under the same key, so an attempt that did reach the gateway is
    /// found then instead of charged again.
    static let offlineSale = RetryPolicy(maximumLookups: 2, maximumResends: 1)

    /// For a networked terminal's payment whose answer was lost: TransactionStatus is asked
    /// until `deadline`'s worth of pauses (0.5 s growing to 8 s) has passed, and the payment is
    /// never sent again (the card is gone).
    static func settlement(within deadline: Duration) -> RetryPolicy {
        RetryPolicy(maximumLookups: .max, maximumResends: 0, lookupDeadline: deadline)
    }

    /// The pause before the next lookup when `lookups` lookups found no answer yet.
    func delay(afterLookups lookups: Int) -> Duration { Self.backoff(step: lookups) }

    /// Whether another lookup is due after `lookups` lookups that found no answer.
    func mayLookUpAgain(after lookups: Int) -> Bool { lookups < maximumLookups }

    /// Whether a request the gateway never saw may be sent again after `resends` resends.
    func mayResend(after resends: Int) -> Bool { resends < maximumResends }

    /// The pause before sending a safe request again after `failures` sends that got no
    /// answer, `elapsed` after the first one left: 0.25 s, 0.5 s, 1 s … 8 s, the last one
    /// shortened to end at ``safeRequestDeadline``. Nil when the error is for the caller: it
    /// cannot heal, or the deadline has come.
    func pauseBeforeResendingSafeRequest(
        after failures: Int, elapsed: Duration, error: GatewayTransportError
    ) -> Duration? {
        let left = safeRequestDeadline - elapsed
        guard !error.isPermanent, failures >= 1, left > .zero else { return nil }
        return min(Self.backoff(step: failures - 1), left)
    }

    /// 0.25 s doubled at each step, at most 8 s.
    private static func backoff(step: Int) -> Duration { .milliseconds(250 << min(max(step, 0), 5)) }
}
