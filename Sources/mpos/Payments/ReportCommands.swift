import ArgumentParser
import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit

/// `mpos transactions [--status S] [--page N] [--page-size N]`
struct TransactionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions", abstract: "List the merchant's transactions, newest first.",
        discussion: """
            Runs against --gateway URL with --user (its password from --password-file, MPOS_PASSWORD \
            or a prompt) or --client-token, or against an \
            embedded (empty) sandbox gateway. --json prints the gateway's page as JSON.
            """)

    @Option(help: "approved, declined, reversed, refunded or all.")
    var status = "all"

    @Option(help: "The page, from 1.")
    var page = 1

    @Option(help: "Transactions per page, 1 to 100.")
    var pageSize = 20

    @Option(help: "Free text: id, reference, authorisation code, last four digits, amount in minor units.")
    var text: String?

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        guard let filter = SearchStatusFilter(rawValue: status) else {
            throw CLIFailure(
                "invalid --status '\(status)': use one of \(SearchStatusFilter.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard page >= 1 else { throw CLIFailure("invalid --page \(page): pages start at 1") }
        guard (1...100).contains(pageSize) else {
            throw CLIFailure("invalid --page-size \(pageSize): use 1 to 100")
        }
        let request = TransactionSearchRequest(page: page, pageSize: pageSize, status: filter, text: text)
        let result = try await TerminalSession.with(options, needsReader: false, showEvents: false, paying: false) {
            terminal in
            do { return try await terminal.reports.searchTransactions(request) } catch {
                throw CLIFailure((error as? MPOSError)?.message ?? "\(error)")
            }
        }
        if options.json {
            CLIOutput.line(try ReportOutput.json(result))
            return
        }
        CLIOutput.line("page \(result.page) · \(result.items.count) of \(result.totalCount) transactions")
        for item in result.items {
            CLIOutput.line(
                [
                    item.id.rawValue, ReportOutput.timestamp(item.createdAt), item.kind.rawValue,
                    item.status.rawValue,
                    Receipt.format(item.totalAmount, item.currency), item.card?.maskedPAN ?? "",
                ].joined(separator: "  "))
        }
    }
}

/// `mpos stats [--from DATE] [--to DATE] [--group-by day|week|month|quarter|year]`
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Turnover statistics per day, week, month, quarter or year.",
        discussion: """
            Dates are YYYY-MM-DD (UTC) or ISO 8601 date-times; --to is exclusive. The default \
            period is the last 30 days up to tomorrow. Runs against --gateway like \
            `mpos transactions`.
            """)

    @Option(help: "The first day (default: 30 days ago).")
    var from: String?

    @Option(help: "The day after the last (default: tomorrow).")
    var to: String?

    @Option(help: "day, week, month, quarter or year.")
    var groupBy = "day"

    @Option(help: "Only this currency (ISO 4217).")
    var currency: String?

    @OptionGroup var options: TerminalOptions

    func run() async throws {
        guard let grouping = StatisticsGrouping(rawValue: groupBy) else {
            throw CLIFailure(
                "invalid --group-by '\(groupBy)': use one of \(StatisticsGrouping.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let now = Date()
        let start =
            try from.map { try ReportOutput.date($0, option: "--from") }
            ?? now.addingTimeInterval(-30 * 86_400)
        let end = try to.map { try ReportOutput.date($0, option: "--to") } ?? now.addingTimeInterval(86_400)
        guard start < end else { throw CLIFailure("--from must be before --to") }
        let filter = try currency.map { try AmountArgument.currency($0) }
        let request = StatisticsRequest(from: start, to: end, grouping: grouping, currency: filter)
        let result = try await TerminalSession.with(options, needsReader: false, showEvents: false, paying: false) {
            terminal in
            do { return try await terminal.reports.statistics(request) } catch {
                throw CLIFailure((error as? MPOSError)?.message ?? "\(error)")
            }
        }
        if options.json {
            CLIOutput.line(try ReportOutput.json(result))
            return
        }
        CLIOutput.line("statistics by \(result.grouping.rawValue) in \(result.currency.code)")
        if result.buckets.isEmpty { CLIOutput.line("  no transactions in the period") }
        for bucket in result.buckets {
            var line =
                "  \(bucket.label)  count \(bucket.count)  turnover \(Receipt.format(bucket.turnover, result.currency))"
            if let average = bucket.average {
                line += "  average \(Receipt.format(average, result.currency))"
            }
            CLIOutput.line(line)
        }
    }
}

/// Formatting shared by the report commands.
enum ReportOutput {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = GatewayJSON.makeEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 date-time.
    static func date(_ text: String, option: String) throws -> Date {
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        if let date = day.date(from: text) { return date }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        throw CLIFailure("invalid \(option) '\(text)': use YYYY-MM-DD or an ISO 8601 date-time")
    }
}
