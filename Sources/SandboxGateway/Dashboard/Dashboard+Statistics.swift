import Foundation
import Hummingbird

extension Dashboard {
    /// Statistics of the session's merchant in its currency, grouped by `?period=` (day by default).
    func statistics(_ request: Request, _ session: DashboardSession) async throws -> Response {
        let name = request.uri.queryParameters.get("period") ?? StatisticsPeriod.day.rawValue
        guard let period = StatisticsPeriod(rawValue: name) else {
            throw GatewayError.invalid("period must be one of day, week, month, quarter, year.")
        }
        let currency = try await environment.accounts.merchantInfo(merchantID: session.merchantID, userID: nil).currency
        let now = environment.now
        // `to` is exclusive: one second past now keeps a payment made this instant.
        let groups = try await reporting.statistics(
            merchant: session.merchantID, from: now.addingTimeInterval(-StatisticsPage.lookBack(for: period)),
            to: now.addingTimeInterval(1), period: period, nestByStatus: false, currency: currency.code)
        return DashboardHTTP.page(StatisticsPage.render(session: session, period: period, currency: currency, groups: groups))
    }
}
