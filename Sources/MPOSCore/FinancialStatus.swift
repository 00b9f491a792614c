/// The outcome of a financial transaction as the SDK reports it.
///
/// The raw values are the case names and are stable: they appear in stored records and
/// on the wire.
public enum FinancialStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The issuer (or the card, offline) approved the full amount.
    case approved
    /// The issuer or the card refused the transaction; no money moves.
    case declined
    /// Completed without an issuer decision being involved, as for a void, a tip
    /// adjustment or a capture the gateway accepted.
    case processed
    /// The transaction could not be completed because of an error (reader, network,
    /// gateway); no approval was obtained. See the accompanying `MPOSError`.
    case failed
    /// The cardholder, the merchant or the app cancelled before completion; no money moves.
    case cancelled
    /// Started but not yet resolved, or the outcome is unknown (for example a lost
    /// connection after the request was sent) and must be looked up before retrying.
    case pending
    /// The issuer approved less than the requested amount; the rest must be collected
    /// another way.
    case partiallyApproved
    /// An approved transaction was reversed (by the SDK, the gateway or the issuer), so the
    /// authorisation no longer holds.
    case reversed
    /// An approved sale has since been refunded in full.
    case refunded
}
