extension GatewayValidation {
    /// The longest basket line name.
    public static let basketItemNameMaximumLength = 100
    /// The most lines a basket may hold.
    public static let basketMaximumItems = 500
    /// The highest tax rate, in basis points (100 %).
    public static let taxBasisPointsMaximum = 10_000
    /// How many instalments a plan may have.
    public static let installmentCounts = 2...99
    /// How many months may lie between instalments.
    public static let installmentIntervals = 1...12

    /// The problem with `basket` for a payment of `amount`, or `nil` when it is valid: 1 to
    /// 500 lines, each with a name of 1 to 100 characters, a quantity of at least 1, a unit
    /// price of at least 0 and a tax rate of 0 to 10,000 basis points; gratuity and service
    /// charge at least 0; a location within ±90° latitude and ±180° longitude; and the lines
    /// plus gratuity plus service charge add up to `amount` exactly.
    public static func basketProblem(_ basket: Basket, amount: Int64) -> String? {
        guard (1...basketMaximumItems).contains(basket.items.count) else {
            return "basket must have 1 to \(basketMaximumItems) items"
        }
        var total: Int64 = 0
        for (index, item) in basket.items.enumerated() {
            if let problem = itemProblem(item) { return "basket item \(index + 1): \(problem)" }
            let (line, lineOverflow) = Int64(item.quantity).multipliedReportingOverflow(by: item.unitPrice)
            let (sum, sumOverflow) = total.addingReportingOverflow(line)
            if lineOverflow || sumOverflow { return "basket total is too large" }
            total = sum
        }
        for (name, extra) in [("gratuity", basket.gratuity), ("serviceCharge", basket.serviceCharge)] {
            guard let extra else { continue }
            if extra < 0 { return "basket \(name) may not be negative" }
            let (sum, overflow) = total.addingReportingOverflow(extra)
            if overflow { return "basket total is too large" }
            total = sum
        }
        if let location = basket.location {
            guard location.latitude.isFinite, location.longitude.isFinite, (-90...90).contains(location.latitude),
                (-180...180).contains(location.longitude)
            else { return "basket location must be within ±90° latitude and ±180° longitude" }
        }
        guard total == amount else {
            return "basket adds up to \(total), not the amount \(amount)"
        }
        return nil
    }

    /// The problem with one basket line, or `nil`.
    static func itemProblem(_ item: BasketItem) -> String? {
        if item.name.isEmpty || item.name.unicodeScalars.count > basketItemNameMaximumLength {
            return "name must have 1 to \(basketItemNameMaximumLength) characters"
        }
        if item.quantity < 1 { return "quantity must be at least 1" }
        if item.unitPrice < 0 { return "unitPrice may not be negative" }
        if !(0...taxBasisPointsMaximum).contains(item.taxBasisPoints) {
            return "taxBasisPoints must be 0 to \(taxBasisPointsMaximum) (700 is 7 %)"
        }
        return nil
    }

    /// The problem with an instalment plan, or `nil`: 2 to 99 instalments, 1 to 12 months apart.
    public static func installmentsProblem(_ plan: Installments) -> String? {
        if !installmentCounts.contains(plan.count) {
            return "installments count must be \(installmentCounts.lowerBound) to \(installmentCounts.upperBound)"
        }
        if let interval = plan.intervalMonths, !installmentIntervals.contains(interval) {
            return "installments intervalMonths must be \(installmentIntervals.lowerBound) to \(installmentIntervals.upperBound)"
        }
        return nil
    }
}
