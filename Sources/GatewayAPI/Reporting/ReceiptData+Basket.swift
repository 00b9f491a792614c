extension ReceiptLine {
    /// The receipt lines of `basket`: its items, then the service charge and the gratuity as
    /// lines of their own without tax, so the lines add up to the payment's amount.
    public static func lines(for basket: Basket) -> [ReceiptLine] {
        var lines = basket.items.map {
            ReceiptLine(
                description: $0.name, quantity: $0.quantity, unitPrice: $0.unitPrice,
                total: Int64($0.quantity) * $0.unitPrice, taxBasisPoints: $0.taxBasisPoints)
        }
        for (name, amount) in [("Service charge", basket.serviceCharge), ("Gratuity", basket.gratuity)] {
            guard let amount, amount > 0 else { continue }
            lines.append(
                ReceiptLine(
                    description: name, quantity: 1, unitPrice: amount, total: amount, taxBasisPoints: 0))
        }
        return lines
    }
}

extension ReceiptTax {
    /// The rate as receipts print it: `"10 %"`, `"7.5 %"`, `"0.25 %"`.
    public var rateText: String {
        let whole = basisPoints / 100
        let fraction = basisPoints % 100
        guard fraction != 0 else { return "\(whole) %" }
        let decimals =
            fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(whole).\(decimals) %"
    }

    /// The tax in `lines` per rate, prices including tax, lowest rate first; rates of zero
    /// are left out. The tax of a rate is its lines' total × rate ÷ (100 % + rate), rounded
    /// down to the minor unit, and the net amount is the rest: as the Accept receipts show
    /// it (10 % of 10.00 is 0.90 tax on 9.10 net; of 9.00, 0.81 on 8.19).
    public static func summary(of lines: [ReceiptLine]) -> [ReceiptTax] {
        var gross: [Int: Int64] = [:]
        for line in lines where line.taxBasisPoints > 0 {
            gross[line.taxBasisPoints, default: 0] += line.total
        }
        return gross.keys.sorted().map { rate in
            let total = gross[rate]!
            let (product, overflow) = total.multipliedReportingOverflow(by: Int64(rate))
            let tax =
                overflow
                ? Int64((Double(total) * Double(rate) / Double(10_000 + rate)).rounded(.down))
                : product / Int64(10_000 + rate)
            return ReceiptTax(basisPoints: rate, netAmount: total - tax, taxAmount: tax)
        }
    }
}
