import Foundation
import MPOSCore

/// Turnover and counts per period as two charts with the figures in a table beside them.
enum StatisticsPage {
    /// How far back each grouping looks, in days.
    static func lookBack(for period: StatisticsPeriod) -> TimeInterval {
        let days: Double =
            switch period {
            case .day: 31
            case .week: 7 * 26
            case .month: 366
            case .quarter: 2 * 366
            case .year: 5 * 366
            }
        return days * 24 * 3600
    }

    static func render(
        session: DashboardSession, period: StatisticsPeriod, currency: Currency, groups: [StatisticsGroup]
    ) -> HTML {
        let choices = StatisticsPeriod.allCases.map { choice -> HTML in
            let current: HTML = choice == period ? " aria-current=\"page\"" : ""
            return "<a href=\"/dashboard/statistics?period=\(choice.rawValue)\"\(current)>\(choice.rawValue)</a>"
        }
        let turnover = BarChart(
            title: "Turnover per \(period.rawValue) in \(currency.code)",
            bars: groups.map { .init(label: $0.period, value: $0.figures.turnover) })
        let counts = BarChart(
            title: "Transactions per \(period.rawValue)",
            bars: groups.map { .init(label: $0.period, value: Int64($0.figures.count)) })
        let rows = groups.map { group -> HTML in
            """
            <tr><th scope="row">\(group.period)</th><td class="number">\(group.figures.count)</td>\
            <td class="number">\(DashboardLayout.money(group.figures.turnover, currency))</td></tr>
            """
        }
        let content: HTML = """
            <p class="periods">Group by: \(choices)</p>\
            <div class="figures"><figure>\(turnover.svg)<figcaption>\(turnover.title)</figcaption></figure>\
            <figure>\(counts.svg)<figcaption>\(counts.title)</figcaption></figure>\
            <div class="scroll"><table id="figures"><thead><tr><th scope="col">Period</th><th scope="col">Count</th>\
            <th scope="col">Turnover</th></tr></thead><tbody>\(rows)</tbody></table></div></div>
            """
        return DashboardLayout.page(title: "Statistics", session: session, content: content)
    }
}
