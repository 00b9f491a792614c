/// The tip the reader offers the cardholder during a sale, after the card is read and before
/// the chip's cryptogram (Handpoint's tip entry: `tipPercentages` / `tipAmounts` of the
/// reader's start, status `Tip input`). The card then authorises the amount plus the tip, and
/// the result, the receipt and the gateway's record carry the tip apart
/// (``Transaction/tipAmount``).
///
/// ```swift
/// var parameters = PaymentParameters(amount: 42_00, currency: .eur)
/// parameters.tipOptions = TipOptions(percentages: [10, 15, 20], allowsCustomAmount: true)
/// let result = try await terminal.sale(parameters)   // result.tipAmount, result.totalAmount
/// ```
///
/// An SDK setting for card-present sales, authorisations and pre-authorisations, never sent
/// to the gateway as such: the gateway receives the tip the cardholder chose
/// (``AuthorizeCardRequest/tipAmount``). The rules (``GatewayValidation/tipOptionsProblem(_:amount:)``):
/// something to choose; at most ``maximumOptions`` presets; percentages 1...100 and fixed
/// amounts above zero, none repeated; and the amount plus the largest preset within
/// ``GatewayValidation/maximumTotalAmount``.
public struct TipOptions: Sendable, Hashable, Codable {
    /// Preset percentages of the amount, such as `[10, 15, 20]`; each 1...100. The tip is
    /// the percentage of the amount rounded half up to the minor unit.
    public var percentages: [Int]
    /// Preset fixed tips in minor units, each above zero.
    public var amounts: [Int64]
    /// Whether the cardholder may type a tip of their own (any amount that keeps the total
    /// within ``GatewayValidation/maximumTotalAmount``).
    public var allowsCustomAmount: Bool

    /// The most presets (percentages and amounts together) a reader's screen shows.
    public static let maximumOptions = 6

    /// Creates tip options; see the properties for the rules.
    public init(percentages: [Int] = [], amounts: [Int64] = [], allowsCustomAmount: Bool = false) {
        self.percentages = percentages
        self.amounts = amounts
        self.allowsCustomAmount = allowsCustomAmount
    }
}
