/// How a gateway request whose answer was lost is retried: the attempt is looked up by its
/// idempotency key, with a growing pause between lookups that find nothing yet, and sent
/// again (same key) only when the gateway never saw it.
///
/// The one policy of the SDK: the payment engine follows it for an authorisation, and the
/// terminal for reversals and gateway-only operations (refunds, voids, captures, tips, cash).
struct RetryPolicy: Sendable, Hashable {
    /// How many lookups without an answer before the caller stops waiting; the journal keeps
    /// the attempt unfinished and a later pass finishes it.
    var maximumLookups: Int
    /// How many times a request the gateway never saw is sent again.
    var maximumResends: Int

    /// Eight lookups spaced 0.5 s to 8 s apart (about 30 s in all), three resends.
    static let standard = RetryPolicy(maximumLookups: 8, maximumResends: 3)

    /// The standard policy with a single lookup: for work that must not hold up what comes
    /// next (an earlier attempt finished before a new card payment), where what is left
    /// stays in the journal for later.
    static let oneLookup = RetryPolicy(maximumLookups: 1, maximumResends: standard.maximumResends)

    /// The pause before the next lookup when `lookups` lookups found no answer yet.
    func delay(afterLookups lookups: Int) -> Duration {
        .milliseconds(250 << min(lookups, 5))
    }

    /// Whether another lookup is due after `lookups` lookups that found no answer.
    func mayLookUpAgain(after lookups: Int) -> Bool { lookups < maximumLookups }

    /// Whether a request the gateway never saw may be sent again after `resends` resends.
    func mayResend(after resends: Int) -> Bool { resends < maximumResends }
}
