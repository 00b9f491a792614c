extension MPOSError {
    /// The cause of an error, and so who has to act, derived from the code's range.
    ///
    /// | Codes       | Category       | Typical cause                                    |
    /// |-------------|----------------|--------------------------------------------------|
    /// | 1000...1999 | `integration`  | The app passed invalid input or misused the API.  |
    /// | 2000...2999 | `cardholder`   | The cardholder or merchant cancelled, timed out.  |
    /// | 3000...3999 | `reader`       | The card reader or the card failed.               |
    /// | 4000...4999 | `gateway`      | The payment gateway or the issuer refused.        |
    /// | 5000...5999 | `storage`      | Persisting or reading local state failed.         |
    /// | 9000...9999 | `network`      | The connection failed or timed out.               |
    ///
    /// 6000 to 8999 are reserved for future categories; until then such codes, and any
    /// code outside 1000 to 9999, are `unassigned`.
    public enum Category: String, Sendable, Hashable, Codable, CaseIterable {
        /// Integration and validation errors (1xxx): fix the calling code or its input.
        case integration
        /// Cardholder and merchant actions (2xxx): cancellations, timeouts, wrong PIN.
        case cardholder
        /// Card reader and card faults (3xxx).
        case reader
        /// Gateway and issuer responses (4xxx): declines, refusals, host errors.
        case gateway
        /// Local storage failures (5xxx).
        case storage
        /// Network failures (9xxx): no connection, timeouts, TLS problems.
        case network
        /// A code outside every assigned range.
        case unassigned

        /// The codes that belong to the category; `nil` for ``unassigned``.
        public var codes: ClosedRange<Int>? {
            switch self {
            case .integration: 1000...1999
            case .cardholder: 2000...2999
            case .reader: 3000...3999
            case .gateway: 4000...4999
            case .storage: 5000...5999
            case .network: 9000...9999
            case .unassigned: nil
            }
        }

        /// The category whose range holds `code`, or ``unassigned``.
        public init(code: Int) {
            self =
                Self.allCases.first { category in
                    category.codes.map { $0.contains(code) } ?? false
                } ?? .unassigned
        }
    }
}
