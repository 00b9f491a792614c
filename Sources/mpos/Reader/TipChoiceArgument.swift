import Foundation
import ArgumentParser
import ReaderSimulator

/// `--tip` of `mpos reader emulate`: what the emulated cardholder presses at the tip prompt.
enum TipChoiceArgument {
    /// `none`, `cancel`, `N%` (an offered percentage) or a whole number of minor units (an
    /// offered or custom amount, e.g. `350` for 3.50 EUR).
    static func parse(_ text: String) throws -> TipChoice {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch text {
        case "none": return .noTip
        case "cancel": return .cancel
        default: break
        }
        if text.hasSuffix("%") {
            guard let percent = UInt8(text.dropLast()), (1...100).contains(percent) else {
                throw ValidationError("--tip \(text): a percentage must be 1% to 100%")
            }
            return .percentage(percent)
        }
        guard let minor = Int64(text), minor >= 0 else {
            throw ValidationError("--tip must be none, cancel, a percentage such as 15% or minor units such as 350")
        }
        return .amount(minor)
    }
}
