import Foundation
import GatewayAPI
import MPOSCore
import MPOSKitNIO
import MPOSTestSupport
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards
import Testing

@testable import MPOSKit

/// The promise, checked against the gateway's own ledger during and after a run of sales
/// with faults chosen at random: requests lost before they reach the gateway, answers lost
/// after it acted, an outage that leaves an authorization's outcome unknown, the reader link
/// dropping or the reader rebooting at the scenario amounts, issuer and cardholder
/// refusals, the app dying mid-authorization and starting again on the same journal, and
/// refunds and voids of earlier sales and captures of new authorizations under lost
/// requests, lost answers and outages.
///
/// Whenever a customer pays over a sound network, no approval the app does not know of
/// stands beside the payment. After the run: every sale the app was told was approved is
/// charged once, for the amount it was told, and stands refunded, voided or approved as the
/// app was told; each refund and capture the app heard of is booked once; nothing else is
/// charged; the journal holds nothing unfinished and no card number. `MPOS_SOAK_SEED` and
/// `MPOS_SOAK_SALES` replay or lengthen a run (the seed is in every failure message).
@Suite(.timeLimit(.minutes(10))) struct LedgerSoakTests {
    static let seed = ProcessInfo.processInfo.environment["MPOS_SOAK_SEED"].flatMap(UInt64.init) ?? 20_261_125
    static let sales = ProcessInfo.processInfo.environment["MPOS_SOAK_SALES"].flatMap(Int.init) ?? 64
    /// `MPOS_SOAK_TRACE=1` prints each step and the run's tally.
    static let trace = ProcessInfo.processInfo.environment["MPOS_SOAK_TRACE"] != nil

    /// What a step does to the sale it runs.
    enum Fault: CaseIterable {
        /// Nothing goes wrong.
        case none
        /// Gateway requests fail at random, before or after the gateway acted.
        case network
        /// The reader side misbehaves (a scenario amount: the link drops before the
        /// authorization or after the host answered, or the reader reboots).
        case reader
        /// The issuer or the cardholder says no (a scenario amount).
        case refusal
        /// The app dies once the authorization has reached the gateway; a new terminal on
        /// the same journal starts.
        case crash
        /// The authorization reaches the gateway, then the network is down until the sale
        /// ends: every lookup fails and the outcome stays unknown.
        case outage
        /// A refund (in part or of what remains) of an earlier sale, its request or answer
        /// lost, or its outcome left unknown by an outage and the refund then asked for again.
        case refund
        /// A void of an earlier sale with nothing refunded, under the same faults as a refund.
        case void
        /// An authorization, then its capture (in part or in full) under the same faults.
        case capture
    }

    @Test func noSaleIsLostOrChargedTwiceUnderRandomFaults() async throws {
        let context = Comment(rawValue: "seed \(Self.seed)")
        var random = SplitMix64(seed: Self.seed)
        // On external power: a long run must not drain the reader to its refusal threshold.
        let sandbox = try await Sandbox { $0.battery = Battery(percentage: 100, isCharging: true, drainPerTransaction: 0) }
        // The engine's back-off between lookups (0.5–8 s) passes at once; the reader link's
        // timers never fire.
        let clock = ShortWaitsPassClock(upTo: .seconds(8))
        var chaos = ChaosTransport(seed: random.next())
        var terminal = try await sandbox.terminal(transport: chaos, clock: clock)
        var abandoned: [Task<PaymentResult, any Error>] = []
        var abandonedTerminals: [PaymentTerminal] = []

        /// What the app was told: approved sales by gateway id, with their approved amount;
        /// what was refunded of each; the approved refunds; the sales voided.
        var charged: [TransactionID: Int64] = [:]
        var refunded: [TransactionID: Int64] = [:]
        var refunds: Set<TransactionID> = []
        var voided: Set<TransactionID> = []
        /// Refunds and voids whose outcome stayed unknown and that the app asked for again.
        var askedAgain = 0
        /// Authorizations the app was told were approved, and what it was told it captured.
        var authorized: [TransactionID: Int64] = [:]
        var captured: [TransactionID: Int64] = [:]
        var faultsSeen: [Fault: Int] = [:]
        var paymentsChecked = 0
        var amount: Int64 = 1_00
        /// Authorizations the network lost before they reached the gateway, and after.
        var lost = (before: 0, after: 0)
        func tally(_ chaos: ChaosTransport) {
            lost.before += chaos.lostAuthorizations.before
            lost.after += chaos.lostAuthorizations.after
        }

        /// Runs a follow-up whose request to `path` is lost (before or after the gateway acts,
        /// later requests lost at random) or that an outage leaves unknown; after an unknown
        /// outcome the app asks again, which must resume under the same key.
        func underFaults(
            _ path: String, step: Int, _ ask: () async throws -> PaymentResult
        ) async throws -> PaymentResult {
            let outage = random.next() % 3 == 0
            if outage { chaos.goDown(reaching: path) } else { chaos.loseNext(path, afterSending: random.next() % 2 == 0) }
            chaos.failureRate = outage ? 0 : 0.3
            var result = try await ask()
            chaos.comeBack()
            chaos.failureRate = 0
            if result.status == .failed, result.error == .gatewayUnreachable {
                askedAgain += 1
                let again = try await ask()
                #expect(again.idempotencyKey == result.idempotencyKey, "step \(step): asked again under another key; \(context)")
                result = again
            }
            return result
        }

        for step in 0..<Self.sales {
            let fault = Fault.allCases[Int(random.next() % UInt64(Fault.allCases.count))]
            faultsSeen[fault, default: 0] += 1
            amount = Self.nextOrdinaryAmount(after: amount)
            if Self.trace { print("step", step, fault, amount) }
            switch fault {
            case .none, .network:
                if fault == .network {
                    // The authorization itself is always lost (before or after the gateway
                    // acted, half each); any request after it may be.
                    chaos.loseNext(GatewayPaths.authorizeCard, afterSending: random.next() % 2 == 0)
                    chaos.failureRate = 0.3
                }
                let result = try await terminal.sale(Self.sale(amount))
                chaos.failureRate = 0
                try Self.record(result, into: &charged, context)
            case .outage:
                chaos.goDown(reaching: GatewayPaths.authorizeCard)
                let result = try await terminal.sale(Self.sale(amount))
                chaos.comeBack()
                #expect(result.status != .approved, "step \(step): approved through an outage; \(context)")
                try Self.record(result, into: &charged, context)
            case .refund, .void:
                // An earlier sale this can apply to; without one the step takes a plain sale.
                let candidates = charged.keys.filter { id in
                    !voided.contains(id) && (fault == .void ? refunded[id, default: 0] == 0 : refunded[id, default: 0] < charged[id]!)
                }.sorted { $0.rawValue < $1.rawValue }
                guard !candidates.isEmpty else {
                    try Self.record(try await terminal.sale(Self.sale(amount)), into: &charged, context)
                    break
                }
                let original = candidates[Int(random.next() % UInt64(candidates.count))]
                let remaining = charged[original]! - refunded[original, default: 0]
                // Half the refunds name an amount (at most what remains); the others take what remains.
                let part: Int64? = fault == .void || random.next() % 2 == 0 ? nil : 1 + Int64(random.next() % UInt64(remaining))
                let path = GatewayPaths.transaction(fault == .void ? GatewayPaths.void : GatewayPaths.refund, id: original.rawValue)
                let result = try await underFaults(path, step: step) {
                    fault == .void ? try await terminal.void(transactionID: original)
                        : try await terminal.refund(transactionID: original, amount: part)
                }
                #expect(result.status == .approved, "step \(step): \(fault) \(result.status) \(result.error as Any); \(context)")
                if result.status == .approved, let id = result.transactionID {
                    if fault == .void {
                        voided.insert(original)
                    } else {
                        #expect(!refunds.contains(id), "refund \(id) reported twice; \(context)")
                        refunds.insert(id)
                        refunded[original, default: 0] += result.approvedAmount
                        #expect(result.approvedAmount == (part ?? remaining), "step \(step): refunded \(result.approvedAmount); \(context)")
                    }
                }
            case .capture:
                let authorization = try await terminal.authorize(Self.sale(amount))
                guard authorization.status == .approved, let id = authorization.transactionID else {
                    #expect(authorization.status == .approved, "step \(step): authorization \(authorization.status); \(context)")
                    break
                }
                authorized[id] = authorization.approvedAmount
                let part: Int64? = random.next() % 2 == 0 ? nil : 1 + Int64(random.next() % UInt64(authorization.approvedAmount))
                let result = try await underFaults(GatewayPaths.transaction(GatewayPaths.capture, id: id.rawValue), step: step) {
                    try await terminal.capture(transactionID: id, amount: part)
                }
                #expect(result.status == .approved, "step \(step): capture \(result.status) \(result.error as Any); \(context)")
                if result.status == .approved {
                    #expect(result.approvedAmount == (part ?? authorization.approvedAmount), "step \(step): captured \(result.approvedAmount); \(context)")
                    captured[id] = result.approvedAmount
                }
            case .reader:
                // Not 90.03 or 90.05: the SDK finds those out by its keep-alive, after 15 s of
                // silence (ScenarioEndToEndTests plays them on a manual clock).
                let scenario: Int64 = [90_01, 90_02, 90_04][Int(random.next() % 3)]
                let result = try await terminal.sale(Self.sale(scenario))
                try Self.record(result, into: &charged, context)
            case .refusal:
                let scenario: Int64 = [10_00, 20_00, 2_124, 3_125, 4_134][Int(random.next() % 5)]
                let result = try await terminal.sale(Self.sale(scenario))
                #expect(result.status != .approved, "step \(step): \(scenario) approved")
                try Self.record(result, into: &charged, context)
            case .crash:
                chaos.blockAfterAuthorization()
                let dying = terminal, dyingAmount = amount
                let finished = Locked<PaymentResult?>(nil)
                let sale = Task {
                    let result = try await dying.sale(Self.sale(dyingAmount))
                    finished.withLock { $0 = result }
                    return result
                }
                while !chaos.isBlocked, finished.withLock({ $0 }) == nil {
                    try await Task.sleep(for: .milliseconds(5))
                }
                if let result = finished.withLock({ $0 }) {
                    // It ended before reaching the gateway (the reader refused it): an
                    // ordinary outcome, and the app lives on.
                    if Self.trace { print("  ended before the gateway:", result.status, result.error as Any) }
                    chaos.cancelBlock()
                    try Self.record(result, into: &charged, context)
                    break
                }
                abandoned.append(sale)
                // The app is gone: its reader link closes with it, and a new terminal starts on
                // the same journal (its login finishes the abandoned attempt).
                await dying.disconnect()
                abandonedTerminals.append(dying)
                tally(chaos)
                chaos = ChaosTransport(seed: random.next())
                terminal = try await sandbox.terminal(transport: chaos, clock: clock)
                #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty, context)
            }
            if await terminal.reader.link == nil {
                let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
                try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
            }
            if fault == .none, charged.count > paymentsChecked {
                // A customer just paid, over a sound network: no approval the app does not know
                // of may stand beside it (one whose outcome stayed unknown is reversed before
                // the next payment that reaches the gateway).
                paymentsChecked = charged.count
                let standing = try await Self.allTransactions(terminal).filter {
                    [.sale, .authorization].contains($0.kind) && [.approved, .partiallyApproved, .processed].contains($0.status)
                        && charged[$0.id] == nil && authorized[$0.id] == nil
                }
                #expect(standing.isEmpty, "step \(step): standing beside a payment: \(standing.map(\.id)); \(context)")
            }
        }

        tally(chaos)
        if Self.trace {
            print("charged \(charged.count) of \(Self.sales); refunds \(refunds.count), voids \(voided.count), captures \(captured.count), asked again \(askedAgain); steps by fault: \(faultsSeen); lost \(lost)")
        }
        // Whatever is still open (a reversal the network kept from being confirmed) is
        // finished now, as the next start would.
        _ = try await terminal.recovery.recoverUnfinished()
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty, context)

        let ledger = try await Self.allTransactions(terminal)
        let sales = ledger.filter { $0.kind == .sale }
        let moneyMoved = sales.filter { [.approved, .partiallyApproved, .processed].contains($0.status) }
        for (id, approved) in charged {
            let booked = sales.first { $0.id == id }
            #expect(booked != nil, "approved sale \(id) missing from the ledger; \(context)")
            let expected: FinancialStatus = voided.contains(id) ? .reversed : refunded[id] == approved ? .refunded : .approved
            #expect(booked?.status == expected, "sale \(id) is \(booked?.status.rawValue ?? "-"), not \(expected); \(context)")
            #expect(booked?.approvedAmount == approved, "sale \(id): \(context)")
        }
        // Each refund the app heard of is in the ledger once, and no other: per sale, the
        // refunds add up to what the app was told.
        let bookedRefunds = ledger.filter { $0.kind == .refund && $0.status != .declined && $0.status != .failed }
        #expect(Set(bookedRefunds.map(\.id)) == refunds && bookedRefunds.count == refunds.count, "refunds: \(context)")
        for (id, amount) in refunded {
            let sum = bookedRefunds.filter { $0.originalID == id }.reduce(Int64(0)) { $0 + $1.approvedAmount }
            #expect(sum == amount, "sale \(id): refunds add up to \(sum), the app was told \(amount); \(context)")
        }
        // Voids and reversals of sales the app was told were approved: exactly its voids (the
        // engine's own reversals undo approvals the app never heard of).
        // Each authorization the app heard of is booked; its captures are exactly those the app
        // was told of, for their amounts.
        for (id, amount) in authorized {
            let booked = ledger.first { $0.id == id }
            #expect(booked?.kind == .authorization && booked?.approvedAmount == amount, "authorization \(id); \(context)")
            let captures = ledger.filter { $0.kind == .capture && $0.originalID == id }
            #expect(captures.map(\.approvedAmount) == (captured[id].map { [$0] } ?? []), "captures of \(id): \(captures.map(\.approvedAmount)); \(context)")
        }
        let bookedVoids = ledger.filter { $0.kind == .saleVoid && $0.originalID.map { charged[$0] != nil } == true }
        #expect(Set(bookedVoids.compactMap(\.originalID)) == voided && bookedVoids.count == voided.count, "voids: \(context)")
        for sale in moneyMoved where charged[sale.id] == nil && !voided.contains(sale.id) {
            Issue.record("charged without the app knowing: \(sale.id) \(sale.status.rawValue) \(sale.approvedAmount); \(context)")
        }
        // Every kind of step ran, so the run proves what it says.
        #expect(Set(faultsSeen.keys) == Set(Fault.allCases), "faults seen: \(faultsSeen); \(context)")
        // Authorizations were lost both ways: the lookup by key and the resend both ran; and a
        // follow-up whose outcome stayed unknown was asked for again.
        #expect(lost.before > 0 && lost.after > 0, "authorizations lost: \(lost); \(context)")
        #expect(askedAgain > 0 && !refunds.isEmpty && !voided.isEmpty && !captured.isEmpty, "follow-ups: \(askedAgain) asked again; \(context)")

        for task in abandoned { task.cancel() }
        for dying in abandonedTerminals { await dying.disconnect() }
        try await sandbox.close(terminal)
    }

    static func sale(_ amount: Int64) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur, duplicateCheck: false)
    }

    /// The next amount after `amount` that triggers no scenario and stays within the test
    /// card's credit.
    static func nextOrdinaryAmount(after amount: Int64) -> Int64 {
        var next = amount + 37
        if next > 90_00 { next = 1_00 + next % 97 }
        while SandboxScenario.forAmount(minor: next) != nil { next += 1 }
        return next
    }

    /// Notes an approved result as charged, after checking it says what an approval says.
    static func record(_ result: PaymentResult, into charged: inout [TransactionID: Int64], _ context: Comment) throws {
        guard result.status == .approved else {
            #expect(result.approvedAmount == 0 || result.reversed, "\(result.status) with \(result.approvedAmount); \(context)")
            return
        }
        let id = try #require(result.transactionID, context)
        #expect(charged[id] == nil, "\(id) reported approved twice; \(context)")
        charged[id] = result.approvedAmount
    }

    /// Every transaction of the merchant, page by page.
    static func allTransactions(_ terminal: PaymentTerminal) async throws -> [GatewayAPI.Transaction] {
        var all: [GatewayAPI.Transaction] = []
        var page = 1
        while true {
            let result = try await terminal.reports.searchTransactions(TransactionSearchRequest(page: page, pageSize: 200))
            all += result.items
            if result.items.count < 200 { return all }
            page += 1
        }
    }
}
