import Foundation
import MPOSCore
import Testing

@testable import MPOSKit

/// The offline limits, each at its edge: a sale that reaches a limit is taken offline, one
/// beyond it is refused with "online required".
@Suite(.timeLimit(.minutes(1)))
struct OfflinePolicyTests {
    static let online = Date(timeIntervalSince1970: 1_800_000_000)

    static func stored(_ amount: Int64, _ currency: Currency = .eur) -> StoredOfflinePayment {
        StoredOfflinePayment(
            id: UUID(), idempotencyKey: IdempotencyKey(), amount: amount, currency: currency, maskedPAN: nil,
            storedAt: online, forwarded: nil)
    }

    static func refusal(
        _ policy: OfflinePolicy, amount: Int64 = 10_00, pending: [StoredOfflinePayment] = [],
        after seconds: TimeInterval = 60, lastOnline: Date? = online
    ) -> MPOSError? {
        policy.refusal(
            amount: amount, currency: .eur, pending: pending, lastOnline: lastOnline,
            now: online.addingTimeInterval(seconds))
    }

    @Test func theLargestPaymentIsTakenAndOneMinorUnitMoreIsNot() {
        let policy = OfflinePolicy(maximumPaymentAmount: 50_00)
        #expect(Self.refusal(policy, amount: 50_00) == nil)
        #expect(Self.refusal(policy, amount: 50_01)?.code == MPOSError.Code.offlineAmountLimit)
    }

    @Test func theTotalPerCurrencyCountsWhatIsStoredAndThisSale() {
        let policy = OfflinePolicy(maximumTotalPerCurrency: ["EUR": 100_00])
        let pending = [Self.stored(60_00), Self.stored(500_00, .usd)]
        #expect(Self.refusal(policy, amount: 40_00, pending: pending) == nil)
        #expect(Self.refusal(policy, amount: 40_01, pending: pending)?.code == MPOSError.Code.offlineTotalLimit)
    }

    @Test func theNumberStoredIncludesThisSale() {
        let policy = OfflinePolicy(maximumStoredPayments: 3)
        #expect(Self.refusal(policy, pending: [Self.stored(1), Self.stored(1)]) == nil)
        #expect(
            Self.refusal(policy, pending: [Self.stored(1), Self.stored(1), Self.stored(1)])?.code
                == MPOSError.Code.offlineStoredPaymentsLimit)
    }

    @Test func theWindowIs24HoursSinceTheLastOnlineSessionByDefault() {
        #expect(Self.refusal(.standard, after: 24 * 3600) == nil)
        let expired = Self.refusal(.standard, after: 24 * 3600 + 1)
        #expect(
            expired?.code == MPOSError.Code.offlineTokenExpired
                && expired?.message.contains("TOKEN_EXPIRED_S&F") == true)
    }

    @Test func aClockBeforeTheLastOnlineSessionIsRefused() {
        #expect(Self.refusal(.standard, after: -1)?.code == MPOSError.Code.offlineTokenExpired)
    }

    @Test func noOnlineSessionYetIsNoToken() {
        let noToken = Self.refusal(.standard, lastOnline: nil)
        #expect(noToken?.code == MPOSError.Code.offlineNoToken && noToken?.message.contains("NO_TOKEN") == true)
    }
}
