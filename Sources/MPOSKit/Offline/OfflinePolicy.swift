import Foundation
import GatewayAPI
import MPOSCore

/// The merchant's offline limits: how much the SDK may approve offline before it must reach
/// the gateway again. A sale beyond any limit is not taken offline (``MPOSError/onlineRequired``).
public struct OfflinePolicy: Sendable, Hashable, Codable {
    /// The largest single sale, minor units; nil for none.
    public var maximumPaymentAmount: Int64?
    /// The most stored (not yet forwarded) per currency code, minor units, this sale included.
    public var maximumTotalPerCurrency: [String: Int64]
    /// The most sales stored at once, this one included; nil for none.
    public var maximumStoredPayments: Int?
    /// How long after the last online session (a login) sales may be taken offline.
    public var maximumTimeOffline: Duration

    /// Creates a policy; by default only the 24-hour window applies.
    public init(
        maximumPaymentAmount: Int64? = nil, maximumTotalPerCurrency: [String: Int64] = [:],
        maximumStoredPayments: Int? = nil, maximumTimeOffline: Duration = .seconds(24 * 3600)
    ) {
        self.maximumPaymentAmount = maximumPaymentAmount
        self.maximumTotalPerCurrency = maximumTotalPerCurrency
        self.maximumStoredPayments = maximumStoredPayments
        self.maximumTimeOffline = maximumTimeOffline
    }

    /// 24 hours since the last online session; no amount or count limit.
    public static let standard = OfflinePolicy()

    /// The policy the gateway gave for the merchant at login.
    public init(_ terms: OfflinePolicyTerms) {
        self.init(
            maximumPaymentAmount: terms.maximumPaymentAmount, maximumTotalPerCurrency: terms.maximumTotalPerCurrency,
            maximumStoredPayments: terms.maximumStoredPayments,
            maximumTimeOffline: .seconds(Int64(terms.maximumHoursOffline) * 3600))
    }

    /// Why a sale of `amount` in `currency` may not be stored, or nil when it may: each limit
    /// holds at its edge (a sale that reaches a limit exactly is taken, one beyond it is not).
    func refusal(
        amount: Int64, currency: Currency, pending: [StoredOfflinePayment], lastOnline: Date?, now: Date
    ) -> MPOSError? {
        guard let lastOnline else {
            return MPOSError.onlineRequired.withMessage("NO_TOKEN: no online session yet; log in online first.")
        }
        let offlineFor = now.timeIntervalSince(lastOnline)
        let window = Double(maximumTimeOffline.components.seconds)
        if offlineFor > window || offlineFor < 0 {
            return MPOSError.onlineRequired.withMessage(
                "TOKEN_EXPIRED_S&F: the offline window (\(Int(window / 3600)) h since the last online session) has passed.")
        }
        if let maximumPaymentAmount, amount > maximumPaymentAmount {
            return MPOSError.onlineRequired.withMessage(
                "The amount is over the largest offline payment (\(maximumPaymentAmount) minor units).")
        }
        if let maximumStoredPayments, pending.count + 1 > maximumStoredPayments {
            return MPOSError.onlineRequired.withMessage(
                "\(pending.count) payments are stored offline already, the most allowed is \(maximumStoredPayments).")
        }
        if let limit = maximumTotalPerCurrency[currency.code] {
            let total = pending.filter { $0.currency == currency }.reduce(amount) { $0 + $1.amount }
            if total > limit {
                return MPOSError.onlineRequired.withMessage(
                    "Stored offline \(currency.code) would reach \(total) minor units, over the limit of \(limit).")
            }
        }
        return nil
    }
}
