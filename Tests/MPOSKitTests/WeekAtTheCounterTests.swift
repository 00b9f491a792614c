import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import SandboxCards
import Testing

@testable import MPOSKit

/// A week at a shop's counter, Monday 1 to Sunday 7 March 2027, in one run: a sale every 20 to
/// 30 minutes from 8:00 to 18:00 with a lunch break, on cards of every kind (and one at the
/// stroke of midnight after Saturday's late opening); refunds of the day before each morning;
/// the reports each evening, and all of them again at the end of the week. The gateway's
/// sessions last 45 minutes, so the terminal renews its session by itself after each lunch
/// break and each night. `visa-debit` meets its daily balance of 500.00 each evening and must
/// have it back each morning. A
/// configuration image is published with a deadline on Tuesday and applied on Wednesday
/// morning. On Friday afternoon the gateway is down (its server stopped, started again at ten to
/// five on the same database): the sales are approved offline and forwarded once it is back. On
/// Saturday morning the app is closed and started again on the same journal.
///
/// The promise checked: no sale is refused but the ones the test chose (a card that declines,
/// the debit card over its day's balance); every approval the app was told of is charged once,
/// for its amount, as the gateway's ledger (its SQLite file) says; each day's transaction search
/// lists exactly that day's ledger rows and each day's statistics equal the ledger's sums.
/// `MPOS_WEEK_TRACE=1` prints the week's tally.
@Suite(.timeLimit(.minutes(3))) struct WeekAtTheCounterTests {
    static let days = 7
    static let debitBalance: Int64 = 500_00
    static let sessionLifetime: TimeInterval = 45 * 60
    static let configurationVersion = "EMV-2027.03"

    @Test func aWeekOfSalesIsChargedOnceAndReportedOnItsDay() async throws {
        let week = try await CounterWeek(sessionLifetime: Self.sessionLifetime)
        var random = SplitMix64(seed: 20_270_301)
        week.clock.advance(by: .seconds(7 * 3600 + 50 * 60))  // Monday, 7:50: the shop opens
        var terminal = try await week.openTerminal()
        var till = Till()

        for day in 0..<Self.days {
            for event in Self.plan(day: day, random: &random) {
                await week.advance(to: event.time, terminal: terminal)
                if case .appRestart = event.action {
                    // The app is closed and started again: a new terminal on the same journal.
                    till.renewals += await terminal.client.renewals
                    await terminal.disconnect()
                    terminal = try await week.openTerminal()
                    continue
                }
                try await Self.play(event, day: day, week: week, terminal: terminal, till: &till)
            }
        }

        for problem in till.unexpected { Issue.record(Comment(rawValue: problem)) }
        till.renewals += await terminal.client.renewals
        try await Self.checkTheWeek(week: week, terminal: terminal, till: till)
        try await week.close(terminal)
    }

    // MARK: - The week's events

    enum Action: Sendable {
        /// A customer pays.
        case sale(Sale)
        /// A sale the test chose to be refused: the day decides which.
        case chosenRefusal
        /// The debit card, over what is left of its day's balance.
        case debitOverBalance
        /// The debit card, for what is left of its day's balance.
        case debitToBalance
        /// Refunds of the day before's sales.
        case refunds
        /// The reader spent the night on its charger.
        case readerCharged
        /// The app is closed and started again.
        case appRestart
        case publishUpdate
        case applyUpdate
        case gatewayDown
        case gatewayBack
        /// The app forwards what the terminal has not forwarded by itself yet.
        case forwardLeftovers
        /// The day's transaction search and statistics.
        case reports
    }

    struct Sale: Sendable {
        var card: String
        var entryMode: CardEntryMode
        var amount: Int64
    }

    struct Event: Sendable {
        var time: Date
        var action: Action
    }

    static func dayStart(_ day: Int) -> Date {
        CounterWeek.monday.addingTimeInterval(TimeInterval(day) * 86_400)
    }

    static func label(_ day: Int) -> String { String(format: "2027-03-%02d", day + 1) }

    /// Whether `time` on `day` falls in Friday afternoon's outage.
    static func gatewayIsDown(_ time: Date, day: Int) -> Bool {
        day == 4 && time >= dayStart(day).addingTimeInterval(13 * 3600)
            && time < dayStart(day).addingTimeInterval(16 * 3600 + 50 * 60)
    }

    /// The day's events in order. Sales fall at half past a minute, everything else on the
    /// minute, so no two events share a time.
    static func plan(day: Int, random: inout SplitMix64) -> [Event] {
        func at(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
            dayStart(day).addingTimeInterval(TimeInterval(hour * 3600 + minute * 60 + second))
        }
        var events = [
            Event(time: at(11, 5), action: .chosenRefusal),
            Event(time: at(17, 45), action: .debitOverBalance),
            Event(time: at(17, 50), action: .debitToBalance),
            Event(time: at(18, 30), action: .reports),
        ]
        if day >= 1 {
            events.append(Event(time: at(7, 40), action: .readerCharged))
            events.append(Event(time: at(9, 5), action: .refunds))
        }
        if day == 1 { events.append(Event(time: at(12, 40), action: .publishUpdate)) }
        if day == 2 { events.append(Event(time: at(7, 30), action: .applyUpdate)) }
        if day == 5 { events.append(Event(time: at(7, 35), action: .appRestart)) }
        if day == 6 {
            // Saturday's late opening ends with a customer at the stroke of midnight: a Sunday sale.
            let midnight = Sale(card: "visa-credit", entryMode: .chip, amount: 24_00)
            events.append(Event(time: at(0, 0), action: .sale(midnight)))
        }
        if day == 4 {
            events.append(Event(time: at(13, 0), action: .gatewayDown))
            events.append(Event(time: at(16, 50), action: .gatewayBack))
            events.append(Event(time: at(17, 40), action: .forwardLeftovers))
        }
        var minute = 8 * 60 + Int(random.next() % 10)
        var index = 0
        while minute < 18 * 60 {
            if minute >= 12 * 60, minute < 13 * 60 + 30 {
                minute = 13 * 60 + 30 + Int(random.next() % 10)
                continue
            }
            let time = at(0, minute, 30)
            let offline = gatewayIsDown(time, day: day)
            events.append(Event(time: time, action: .sale(sale(index, offline: offline, random: &random))))
            minute += 20 + Int(random.next() % 11)
            index += 1
        }
        return events.sorted { $0.time < $1.time }
    }

    /// The `index`th customer's card and amount: every kind of card in turn (chip with online
    /// PIN, offline PIN and signature, taps, two applications), the debit card twice in seven.
    /// While the gateway is down only cards whose chip approves offline come.
    static func sale(_ index: Int, offline: Bool, random: inout SplitMix64) -> Sale {
        let rotation: [(String, CardEntryMode, ClosedRange<Int64>)] =
            offline
            ? [("visa-credit", .chip, 5_00...120_00), ("mastercard-2series", .contactless, 2_00...50_00)]
            : [
                ("visa-credit", .chip, 5_00...120_00), ("visa-debit", .chip, 30_00...90_00),
                ("mastercard-2series", .contactless, 2_00...50_00), ("amex", .chip, 10_00...150_00),
                ("visa-debit", .chip, 30_00...90_00), ("contactless", .contactless, 2_00...50_00),
                ("maestro-mastercard", .chip, 5_00...80_00),
            ]
        let (card, entryMode, range) = rotation[index % rotation.count]
        let amount = range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
        return Sale(card: card, entryMode: entryMode, amount: ordinary(amount))
    }

    /// `amount`, or the next one above that plays no sandbox scenario.
    static func ordinary(_ amount: Int64) -> Int64 {
        var amount = amount
        while SandboxScenario.forAmount(minor: amount) != nil { amount += 1 }
        return amount
    }

    static func play(
        _ event: Event, day: Int, week: CounterWeek, terminal: PaymentTerminal, till: inout Till
    ) async throws {
        let today = label(day)
        switch event.action {
        case .sale(let sale):
            let expected: Expectation =
                gatewayIsDown(event.time, day: day)
                ? .approvedOffline
                : sale.card == "visa-debit" && till.debitSpent[today, default: 0] + sale.amount > debitBalance
                    ? .declined("51") : .approved
            try await sell(sale, expecting: expected, day: day, week: week, terminal: terminal, till: &till)
        case .chosenRefusal:
            let (sale, expected): (Sale, Expectation) =
                switch day % 3 {
                case 0: (Sale(card: "expired", entryMode: .chip, amount: 42_10), .declined("54"))
                case 1: (Sale(card: "visa-credit", entryMode: .chip, amount: 10_00), .declined("05"))
                default: (Sale(card: "declines-second-gen-ac", entryMode: .chip, amount: 23_45), .reversed)
                }
            try await sell(sale, expecting: expected, day: day, week: week, terminal: terminal, till: &till)
        case .debitOverBalance:
            let left = debitBalance - till.debitSpent[today, default: 0]
            let sale = Sale(card: "visa-debit", entryMode: .chip, amount: ordinary(max(left + 1_00, 1_00)))
            try await sell(
                sale, expecting: .declined("51"), day: day, week: week, terminal: terminal, till: &till)
        case .debitToBalance:
            // What is left of the balance, to the cent where no scenario amount is in the way:
            // tomorrow's first debit sale is approved only if the balance is the new day's.
            var amount = debitBalance - till.debitSpent[today, default: 0]
            while amount > 0, SandboxScenario.forAmount(minor: amount) != nil { amount -= 1 }
            guard amount >= 1_00 else { return }
            let sale = Sale(card: "visa-debit", entryMode: .chip, amount: amount)
            try await sell(sale, expecting: .approved, day: day, week: week, terminal: terminal, till: &till)
        case .refunds:
            try await refundYesterday(day: day, week: week, terminal: terminal, till: &till)
        case .appRestart:
            preconditionFailure("the week's loop restarts the app")
        case .readerCharged:
            await week.reader.setBattery(percentage: 100)
        case .publishUpdate:
            // Due tomorrow evening: the reader's three days of grace since Monday put the
            // effective deadline on Thursday morning.
            let image = try await week.publishConfiguration(
                version: configurationVersion, bytes: (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) },
                deadline: dayStart(day + 1).addingTimeInterval(18 * 3600))
            till.published = image
        case .applyUpdate:
            let status = try await week.run { try await terminal.updates.check() }
            #expect(status.hasUpdates && status.pending == [till.published].compactMap { $0 })
            #expect(!status.blocked && status.updateDeadline.map { $0 > event.time } == true)
            let result = try await week.run { await terminal.updates.downloadAndApply().result() }
            #expect(result.type == .success, "\(result.message ?? "")")
            #expect(await week.reader.activeVersions().configuration == configurationVersion)
        case .gatewayDown:
            await week.stopGateway()
        case .gatewayBack:
            // The terminal forwards what it stored by itself once the gateway answers, while the
            // next customers pay online, with the same cards and higher chip counters.
            try await week.startGateway()
        case .forwardLeftovers:
            try await forwardStoredSales(day: day, week: week, terminal: terminal, till: &till)
        case .reports:
            try await checkReports(day: day, week: week, terminal: terminal, till: till)
        }
    }

    // MARK: - Sales, refunds, forwarding

    enum Expectation: Sendable, Hashable, CustomStringConvertible {
        case approved
        case approvedOffline
        case declined(String)
        /// The host approved, the card declined: the SDK reversed the approval.
        case reversed

        var description: String {
            switch self {
            case .approved: "approved"
            case .approvedOffline: "approved offline"
            case .declined(let code): "declined \(code)"
            case .reversed: "reversed"
            }
        }
    }

    static func sell(
        _ sale: Sale, expecting expected: Expectation, day: Int, week: CounterWeek, terminal: PaymentTerminal,
        till: inout Till
    ) async throws {
        try await week.reader.present(cardID: sale.card, entryMode: sale.entryMode)
        let parameters = PaymentParameters(amount: sale.amount, currency: .eur, offlineAllowed: true)
        let what =
            "\(label(day)) \(week.now.formatted(.iso8601.time(includingFractionalSeconds: false))) \(sale.card) \(sale.amount)"
        let result: PaymentResult
        do {
            result = try await week.run { try await terminal.sale(parameters) }
        } catch {
            till.unexpected.append("\(what): expected \(expected), threw \(error)")
            return
        }
        let outcome =
            "\(result.status.rawValue) \(result.responseCode ?? "-") reversed \(result.reversed) \(result.error.map { "\($0.code) \($0.message)" } ?? "")"
        switch expected {
        case .approved:
            guard result.status == .approved, result.approvedAmount == sale.amount,
                let id = result.transactionID
            else {
                till.unexpected.append("\(what): expected approved, got \(outcome)")
                return
            }
            till.approved(id.rawValue, amount: sale.amount, card: sale.card, on: label(day))
        case .approvedOffline:
            guard result.status == .approvedOffline, let id = result.offlineID else {
                till.unexpected.append("\(what): expected approved offline, got \(outcome)")
                return
            }
            till.storedOffline[id] = (sale.amount, sale.card)
        case .declined(let code):
            guard result.status == .declined, result.responseCode == code, result.approvedAmount == 0 else {
                till.unexpected.append("\(what): expected declined \(code), got \(outcome)")
                return
            }
            till.chosenRefusals += 1
        case .reversed:
            guard result.status == .declined, result.reversed else {
                till.unexpected.append("\(what): expected reversed, got \(outcome)")
                return
            }
            if let id = result.transactionID { till.reversed.insert(id.rawValue) }
            till.chosenRefusals += 1
        }
    }

    /// The morning's refunds of yesterday's sales (online or forwarded): the largest in full,
    /// the next largest in part.
    static func refundYesterday(day: Int, week: CounterWeek, terminal: PaymentTerminal, till: inout Till)
        async throws
    {
        let yesterday = till.sales.values.filter { $0.day == label(day - 1) && $0.refunded == 0 }
            .sorted { ($0.amount, $0.id) > ($1.amount, $1.id) }
        for (index, sale) in yesterday.prefix(2).enumerated() {
            let amount = index == 0 ? sale.amount : sale.amount / 2
            let id = try #require(TransactionID(rawValue: sale.id))
            let what = "\(label(day)) refund of \(sale.id) (\(sale.card), \(sale.day)) \(amount)"
            do {
                let result = try await week.run {
                    try await terminal.refund(transactionID: id, amount: amount)
                }
                guard result.status == .approved, result.approvedAmount == amount,
                    let refund = result.transactionID
                else {
                    till.unexpected.append(
                        "\(what): \(result.status.rawValue) \(result.error?.message ?? "")")
                    continue
                }
                till.refunded(refund.rawValue, of: sale.id, amount: amount, on: label(day))
            } catch {
                till.unexpected.append("\(what): threw \(error)")
            }
        }
    }

    /// Forwards what the terminal has not forwarded by itself since the gateway came back; each
    /// sale the afternoon stored is approved by the issuer and booked today.
    static func forwardStoredSales(day: Int, week: CounterWeek, terminal: PaymentTerminal, till: inout Till)
        async throws
    {
        _ = try await week.run { try await terminal.offline.forward() }
        let stored = try await terminal.offline.list().payments
        #expect(
            Set(stored.map(\.id)) == Set(till.storedOffline.keys), "the store holds what the app was told")
        #expect(!stored.isEmpty, "the afternoon took sales offline")
        for payment in stored {
            guard let outcome = payment.forwarded, outcome.approved, let id = outcome.transactionID,
                let (amount, card) = till.storedOffline[payment.id]
            else {
                till.unexpected.append(
                    "\(label(day)) stored sale \(payment.id) \(payment.amount): forwarded \(String(describing: payment.forwarded))"
                )
                continue
            }
            till.approved(id.rawValue, amount: amount, card: card, on: label(day))
            till.forwarded += 1
        }
    }

    // MARK: - Reports against the ledger

    /// The day's transaction search lists exactly the ledger's rows of the day, and its
    /// statistics are the ledger's sums for the day, which are what the app was told.
    static func checkReports(day: Int, week: CounterWeek, terminal: PaymentTerminal, till: Till) async throws
    {
        let today = label(day)
        let from = dayStart(day), to = dayStart(day + 1)
        var listed: [Transaction] = []
        var page = 1
        while true {
            let request = TransactionSearchRequest(
                page: page, pageSize: 100, order: .ascending, from: from, to: to)
            let result = try await week.run { try await terminal.reports.searchTransactions(request) }
            listed += result.items
            if result.items.isEmpty || listed.count >= result.totalCount { break }
            page += 1
        }
        let booked = try week.ledger().filter { $0.day == today }
        #expect(
            Set(listed.map(\.id.rawValue)) == Set(booked.map(\.id)) && listed.count == booked.count,
            "\(today): the search lists the day's ledger rows")

        let statistics = try await week.run {
            try await terminal.reports.statistics(StatisticsRequest(from: from, to: to, grouping: .day))
        }
        let sums = LedgerSums(booked)
        #expect(statistics.currency == .eur)
        #expect(statistics.buckets.map(\.label) == [today], "\(today): one bucket, the day's")
        #expect(
            statistics.buckets.first?.turnover == sums.turnover,
            "\(today): turnover against the ledger's \(sums)")
        #expect(statistics.buckets.first?.count == sums.count, "\(today): count against the ledger's \(sums)")
        #expect(
            sums.turnover == till.turnover(on: today),
            "\(today): the ledger's turnover against what the app was told")
    }

    /// What the week adds up to, against the ledger and the week's statistics.
    static func checkTheWeek(week: CounterWeek, terminal: PaymentTerminal, till: Till) async throws {
        let ledger = try week.ledger()
        let byID = Dictionary(grouping: ledger, by: \.id)
        // Every approval the app was told of is booked once, for its amount, and stands as the
        // app's refunds left it.
        for sale in till.sales.values {
            let rows = byID[sale.id] ?? []
            #expect(rows.count == 1, "sale \(sale.id) is booked \(rows.count) times")
            guard let row = rows.first else { continue }
            #expect(
                row.kind == "sale" && row.approved == sale.amount && row.day == sale.day,
                "sale \(sale.id): \(row)")
            #expect(
                row.refunded == sale.refunded,
                "sale \(sale.id): refunded \(row.refunded), the app refunded \(sale.refunded)")
            #expect(
                row.status == (sale.refunded == sale.amount ? "refunded" : "approved"),
                "sale \(sale.id): \(row.status)")
        }
        // Nothing else was charged: the sales that moved money are exactly the app's approvals.
        let charged = ledger.filter { $0.kind == "sale" && $0.movedMoney }
        #expect(
            Set(charged.map(\.id)) == Set(till.sales.keys),
            "sales charged without the app knowing, or missing")
        #expect(charged.count == till.sales.count)
        let refunds = ledger.filter { $0.kind == "refund" && $0.movedMoney }
        #expect(Set(refunds.map(\.id)) == Set(till.refunds.keys) && refunds.count == till.refunds.count)
        for refund in refunds {
            let told = till.refunds[refund.id]
            #expect(
                refund.originalID == told?.original && refund.approved == told?.amount, "refund \(refund.id)")
        }
        // The approvals the card declined were voided, and nothing else.
        for id in till.reversed { #expect(byID[id]?.first?.status == "reversed", "sale \(id) was reversed") }
        let voids = ledger.filter { $0.kind == "saleVoid" }
        #expect(Set(voids.compactMap(\.originalID)) == till.reversed && voids.count == till.reversed.count)
        #expect(
            ledger.allSatisfy { ["sale", "refund", "saleVoid"].contains($0.kind) },
            "\(Set(ledger.map(\.kind)))")

        // Each day's reports again, every day being over: a day's range ends where the next
        // begins, and a sale at the stroke of midnight is the next day's only.
        for day in 0..<Self.days {
            try await checkReports(day: day, week: week, terminal: terminal, till: till)
        }

        // The week's statistics by day are the days' ledger sums; by week, their total.
        let from = CounterWeek.monday, to = dayStart(days)
        let byDay = try await week.run {
            try await terminal.reports.statistics(StatisticsRequest(from: from, to: to, grouping: .day))
        }
        let days = (0..<Self.days).map(label)
        #expect(byDay.buckets.map(\.label) == days)
        for bucket in byDay.buckets {
            let sums = LedgerSums(ledger.filter { $0.day == bucket.label })
            #expect(
                bucket.turnover == sums.turnover && bucket.count == sums.count, "\(bucket.label): \(sums)")
        }
        let byWeek = try await week.run {
            try await terminal.reports.statistics(StatisticsRequest(from: from, to: to, grouping: .week))
        }
        #expect(byWeek.buckets.map(\.label) == ["2027-W09"])
        #expect(byWeek.buckets.first?.turnover == LedgerSums(ledger).turnover)

        // The week had what it says: sales each day, the debit card back each morning, the
        // session renewed after every night, the refusals the test chose, the offline afternoon.
        for day in days {
            #expect(
                till.sales.values.contains { $0.day == day && $0.card == "visa-debit" },
                "\(day): no debit sale approved")
        }
        #expect(till.chosenRefusals >= Self.days * 2, "refusals chosen: \(till.chosenRefusals)")
        #expect(
            till.forwarded == till.storedOffline.count && till.forwarded >= 5, "forwarded \(till.forwarded)")
        let renewals = till.renewals
        if ProcessInfo.processInfo.environment["MPOS_WEEK_TRACE"] != nil {
            print(
                "week: \(till.sales.count) approvals, \(till.refunds.count) refunds, \(till.chosenRefusals) chosen refusals, \(till.forwarded) forwarded, \(renewals) renewals, debit \(till.debitSpent.sorted { $0.key < $1.key })"
            )
        }
        #expect(renewals >= Self.days, "renewals: \(renewals)")
        #expect(try PaymentJournal(path: week.journalPath).unfinished().isEmpty)
        let status = try await week.run { try await terminal.updates.check() }
        #expect(!status.hasUpdates)
    }
}
