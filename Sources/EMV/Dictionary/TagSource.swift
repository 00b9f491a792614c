/// Where a data element's value comes from during a transaction.
public enum TagSource: String, Sendable, Hashable, CaseIterable {
    /// The card (ICC) provides it, in a record or a command response.
    case card
    /// The terminal provides it, from configuration or from the transaction.
    case terminal
    /// The issuer provides it, in the authorisation response.
    case issuer
    /// Either the card or the terminal may provide it, depending on the transaction
    /// (for example Authorisation Response Code, set by the issuer or by the terminal).
    case cardOrTerminal
    /// A contactless kernel keeps it internally or exchanges it with the reader
    /// (configuration, outcome and working data such as `DF8129` Outcome Parameter Set).
    case kernel
}
