/// The card reader a card-present payment is taken on, as the reader reports itself: what the
/// gateway's terminal management needs to judge the payment (the TSM seed: a terminal that has
/// not installed an update by its deadline "will be deactivated, preventing any future
/// transactions").
///
/// The same description as ``TerminalInitializeRequest``, under the name a payment gives it. The gateway registers a reader it has
/// not seen for the merchant (its grace period starts then) and refuses the payment with
/// ``GatewayErrorCode/terminalDeactivated`` when an image newer than the versions reported here
/// was due, after the grace period, before the payment was taken.
public typealias PaymentReader = TerminalInitializeRequest
