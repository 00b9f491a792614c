import Foundation
import ArgumentParser
import MPOSCore
import MPOSKit

/// `--tip-percentages`, `--tip-amount` and `--custom-tip` of `mpos sale`: the tip prompt the
/// reader shows the cardholder (``TipOptions``).
struct TipOptionsArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Tip percentages the reader offers, comma-separated (e.g. 10,15,20).", valueName: "list"))
    var tipPercentages: String?

    @Option(
        name: .customLong("tip-amount"),
        help: ArgumentHelp("A fixed tip the reader offers, in major units; repeat for more.", valueName: "amount"))
    var tipAmounts: [String] = []

    @Flag(help: "Let the cardholder type a tip of their own on the reader.")
    var customTip = false

    /// The tip options, or nil when none of the three is given; the SDK checks their rules.
    func options(currency: Currency) throws -> TipOptions? {
        guard tipPercentages != nil || !tipAmounts.isEmpty || customTip else { return nil }
        let percentages = try (tipPercentages ?? "").split(separator: ",").map { part -> Int in
            let text = part.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")
            guard let value = Int(text) else {
                throw ValidationError("--tip-percentages: '\(part)' is not a whole percentage")
            }
            return value
        }
        let amounts = try tipAmounts.map { try AmountArgument.minorUnits($0, currency) }
        return TipOptions(percentages: percentages, amounts: amounts, allowsCustomAmount: customTip)
    }
}
