/// Sees a terminal's events as they happen, on the terminal's executor (see
/// ``TerminalEvents/addHandler(_:_:)``).
public typealias TerminalEventHandler = @Sendable (TerminalEvent) -> Void

/// Decides on a cardholder's signature, given the merchant copy to sign (see
/// ``PaymentTerminal/setSignatureHandler(_:)``).
public typealias SignatureHandler = @Sendable (SignatureRequest) async -> SignatureDecision

/// Picks an application from the candidates the card offers: an index, or `nil` to cancel
/// (see ``PaymentTerminal/setApplicationSelectionHandler(_:)``).
public typealias ApplicationSelectionHandler = @Sendable ([ApplicationCandidate]) async -> Int?
