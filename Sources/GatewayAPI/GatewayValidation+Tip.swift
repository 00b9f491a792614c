extension GatewayValidation {
    /// The largest total (amount plus tip) in minor units: EMV's Amount, Authorised (9F02)
    /// holds 12 digits.
    public static let maximumTotalAmount: Int64 = 999_999_999_999

    /// The problem with `options` for a payment of `amount`, or `nil` when they are valid
    /// (the rules of ``TipOptions``).
    public static func tipOptionsProblem(_ options: TipOptions, amount: Int64) -> String? {
        let presets = options.percentages.count + options.amounts.count
        guard presets > 0 || options.allowsCustomAmount else {
            return "tip options must offer a percentage, an amount or a custom tip"
        }
        guard presets <= TipOptions.maximumOptions else {
            return "tip options may offer at most \(TipOptions.maximumOptions) presets, got \(presets)"
        }
        if let bad = options.percentages.first(where: { !(1...100).contains($0) }) {
            return "tip percentages must be 1 to 100, got \(bad)"
        }
        if let bad = options.amounts.first(where: { $0 <= 0 }) {
            return "tip amounts must be greater than zero, got \(bad)"
        }
        if Set(options.percentages).count != options.percentages.count
            || Set(options.amounts).count != options.amounts.count
        {
            return "tip options may not repeat a preset"
        }
        let largestPercentage = Int64(options.percentages.max() ?? 0)
        let largest = max(options.amounts.max() ?? 0, (amount.clamped * largestPercentage + 50) / 100)
        if let problem = tipProblem(largest, amount: amount) { return "the largest preset: \(problem)" }
        return nil
    }

    /// The problem with a `tip` on a payment of `amount`, or `nil`: the tip is at least zero
    /// and the total at most ``maximumTotalAmount``.
    public static func tipProblem(_ tip: Int64, amount: Int64) -> String? {
        guard tip >= 0 else { return "tipAmount must be zero or more, got \(tip)" }
        guard tip <= maximumTotalAmount - amount.clamped else {
            return "amount plus tipAmount must be at most \(maximumTotalAmount) minor units"
        }
        return nil
    }
}

extension Int64 {
    /// The amount within 0...``GatewayValidation/maximumTotalAmount``, so that sums and
    /// products of the tip rules cannot overflow (the amount's own rule reports it).
    fileprivate var clamped: Int64 { Swift.min(Swift.max(self, 0), GatewayValidation.maximumTotalAmount) }
}
