import Foundation
import GatewayAPI
import MPOSCore

/// The merchant's offline limits: how much the SDK may approve offline before it must reach
/// the gateway again. The gateway returns them at login (``Session/offlinePolicy``); a sale
/// beyond any limit is not taken offline (``MPOSError/onlineRequired``).
public typealias OfflinePolicy = OfflinePolicyTerms

extension OfflinePolicyTerms {
    /// 24 hours since the last online session; no amount or count limit.
    public static let standard = OfflinePolicyTerms()

    /// Why a sale of `amount` in `currency` may not be stored, or nil when it may: each limit
    /// holds at its edge (a sale that reaches a limit exactly is taken, one beyond it is not).
    /// A device whose clock moved or that restarted since `lastOnline` is refused before
    /// this, by the device checks (`SYSTEM_CHANGE`, `DeviceChecks.offlineRefusal`).
    func refusal(
        amount: Int64, currency: Currency, pending: [StoredOfflinePayment], lastOnline: Date?, now: Date
    ) -> MPOSError? {
        guard let lastOnline else {
            return MPOSError.offlineNoToken.withMessage("NO_TOKEN: no online session yet; log in online first.")
        }
        let offlineFor = now.timeIntervalSince(lastOnline)
        let window = Double(maximumHoursOffline) * 3600
        if offlineFor > window || offlineFor < 0 {
            return MPOSError.offlineTokenExpired.withMessage(
                "TOKEN_EXPIRED_S&F: the offline window (\(maximumHoursOffline) h since the last online session) has passed."
            )
        }
        if let maximumPaymentAmount, amount > maximumPaymentAmount {
            return MPOSError.offlineAmountLimit.withMessage(
                "The amount is over the largest offline payment (\(maximumPaymentAmount) minor units).")
        }
        if let maximumStoredPayments, pending.count + 1 > maximumStoredPayments {
            return MPOSError.offlineStoredPaymentsLimit.withMessage(
                "\(pending.count) payments are stored offline already, the most allowed is \(maximumStoredPayments)."
            )
        }
        if let limit = maximumTotalPerCurrency[currency.code] {
            let total = pending.filter { $0.currency == currency }.reduce(amount) { $0 + $1.amount }
            if total > limit {
                return MPOSError.offlineTotalLimit.withMessage(
                    "Stored offline \(currency.code) would reach \(total) minor units, over the limit of \(limit)."
                )
            }
        }
        return nil
    }
}
