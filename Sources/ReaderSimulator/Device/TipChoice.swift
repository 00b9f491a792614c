import ReaderLink

/// What the simulated cardholder does at the reader's tip prompt (status
/// ``MPOSCore/ReaderStatusCode/tipInput``), scripted as the PIN and the signature are: set it
/// with ``SimulatedReaderConfiguration/tipChoice`` or ``SimulatedReader/setTipChoice(_:)``.
///
/// A choice the prompt does not offer (a percentage not among the start's, an amount that is
/// neither offered nor allowed as a custom tip) is taken as no tip, as a reader that only
/// lets the cardholder press what it shows would.
public enum TipChoice: Sendable, Hashable {
    /// The cardholder declines to tip.
    case noTip
    /// One of the offered percentages.
    case percentage(UInt8)
    /// An offered fixed amount, or one the cardholder types when custom tips are allowed
    /// (minor units).
    case amount(Int64)
    /// The cardholder presses Cancel: the transaction ends cancelled.
    case cancel

    /// The largest total the reader puts in Amount, Authorised (9F02 holds 12 digits).
    public static let maximumTotal: Int64 = 999_999_999_999

    /// What pressing this choice means for `start`.
    public enum Resolution: Sendable, Hashable {
        /// The tip added to the amount (0 for none), and the percentage it came from.
        case tip(amount: Int64, percentage: UInt8?, note: String?)
        /// The cardholder cancelled.
        case cancelled
    }

    /// The tip this choice makes for `start`: a percentage is of the start's amount, rounded
    /// half up to the minor unit.
    public func resolve(for start: StartTransaction) -> Resolution {
        let amount = start.amountMinorUnits
        let (difference, below) = Self.maximumTotal.subtractingReportingOverflow(amount)
        let room = below ? 0 : difference
        switch self {
        case .cancel:
            return .cancelled
        case .noTip:
            return .tip(amount: 0, percentage: nil, note: nil)
        case .percentage(let percent):
            guard start.tipPercentages.contains(percent) else {
                return .tip(amount: 0, percentage: nil, note: "\(percent) % is not offered; no tip")
            }
            // An amount past 9F02's 12 digits (a start no SDK should send) takes no tip rather
            // than overflowing.
            let (share, overflow) = amount.multipliedReportingOverflow(by: Int64(percent))
            let tip = overflow || share > Int64.max - 50 ? Int64.max : (share + 50) / 100
            guard tip <= room else { return .tip(amount: 0, percentage: nil, note: "the total would be too large; no tip") }
            return .tip(amount: tip, percentage: percent, note: nil)
        case .amount(let tip):
            guard tip >= 0, start.tipAmounts.contains(tip) || start.allowsCustomTip else {
                return .tip(amount: 0, percentage: nil, note: "a tip of \(tip) is not offered; no tip")
            }
            guard tip <= room else { return .tip(amount: 0, percentage: nil, note: "the total would be too large; no tip") }
            return .tip(amount: tip, percentage: nil, note: nil)
        }
    }
}
