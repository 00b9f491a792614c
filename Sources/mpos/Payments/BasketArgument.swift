import GatewayAPI
import MPOSCore

/// `--item NAME:QTY:PRICE[:TAX]`: one basket line from the command line. The price is in
/// major units of the sale's currency (tax included), the tax a percentage (`7`, `7.5`);
/// the name may not contain a colon.
enum BasketArgument {
    /// The line `text` describes, or a failure naming what is wrong with it.
    static func item(_ text: String, currency: Currency) throws -> BasketItem {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (3...4).contains(parts.count), !parts[0].isEmpty else {
            throw CLIFailure("invalid item '\(text)': write NAME:QUANTITY:PRICE[:TAX%], e.g. Coffee:2:3.50:7")
        }
        guard let quantity = Int(parts[1]), quantity > 0 else {
            throw CLIFailure("invalid item '\(text)': the quantity must be a whole number above zero")
        }
        let price: Int64
        do { price = try Money.parse(parts[2], currency: currency).amount } catch {
            throw CLIFailure("invalid item '\(text)': the price is not an amount (\(error.message))")
        }
        let tax = parts.count == 4 ? try basisPoints(parts[3], item: text) : 0
        return BasketItem(name: parts[0], quantity: quantity, unitPrice: price, taxBasisPoints: tax)
    }

    /// `7` → 700, `7.5` → 750, `0.25` → 25: a percentage with at most two decimals.
    static func basisPoints(_ percent: String, item: String) throws -> Int {
        let pieces = percent.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), let whole = Int(pieces[0]), whole >= 0, whole <= 100,
            pieces.count == 1 || ((1...2).contains(pieces[1].count) && pieces[1].allSatisfy { $0.isASCII && $0.isNumber }),
            let fraction = pieces.count == 2 ? Int(pieces[1].padding(toLength: 2, withPad: "0", startingAt: 0)) : 0
        else {
            throw CLIFailure("invalid item '\(item)': the tax is a percentage such as 7 or 7.5")
        }
        return whole * 100 + fraction
    }
}
