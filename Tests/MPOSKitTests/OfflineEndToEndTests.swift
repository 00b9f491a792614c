import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import SandboxGateway
import Testing

@testable import MPOSKit

/// Store and forward through `PaymentTerminal`, against the real sandbox gateway over HTTP
/// and the simulated reader over TCP: the gateway goes out of reach, the card approves
/// offline, and the forward charges each stored sale exactly once.
@Suite(.serialized, .timeLimit(.minutes(3))) struct OfflineEndToEndTests {
    static func sale(_ amount: Int64) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur, offlineAllowed: true)
    }

    /// A terminal whose gateway can go away; the retry pauses pass at once.
    static func terminal(_ sandbox: Sandbox) async throws -> (PaymentTerminal, ChaosTransport) {
        let outage = ChaosTransport()
        let terminal = try await sandbox.terminal(
            transport: outage, clock: ShortWaitsPassClock(upTo: .seconds(8)))
        return (terminal, outage)
    }

    /// Forwards, then the outcome of every stored sale: read from the store, since the
    /// terminal's own background forward may have reached some of them first.
    static func forwardAll(_ terminal: PaymentTerminal) async throws -> [OfflineForwardOutcome?] {
        try await terminal.offline.forward()
        return try await terminal.offline.list().payments.map(\.forwarded)
    }

    /// The size of the file at `path`, bytes.
    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    static func sales(_ terminal: PaymentTerminal) async throws -> [Transaction] {
        try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
    }

    @Test func aSaleTheCardApprovesOfflineIsForwardedOnce() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        let forwarded = Locked<[OfflineForwardOutcome]>([])
        terminal.events.addHandler([.transaction]) { event in
            if case .offlineForwarded(let outcome) = event { forwarded.withLock { $0.append(outcome) } }
        }
        outage.goDown(reaching: "/nothing")
        let result = try await terminal.sale(Self.sale(31_00))
        #expect(result.status == .approvedOffline && result.approvedAmount == 31_00)
        let id = try #require(result.offlineID)
        #expect(result.emv?.transactionCertificate?.count == 16)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)
        let stored = try await terminal.offline.list().payments
        #expect(
            stored.map(\.id) == [id] && stored[0].forwarded == nil
                && stored[0].idempotencyKey == result.idempotencyKey)

        outage.comeBack()
        try await terminal.offline.forward()
        let listed = try await terminal.offline.list().payments
        let outcome = try #require(listed.first?.forwarded)
        #expect(outcome.approved && outcome.responseCode == "00")
        let sales = try await Self.sales(terminal)
        #expect(sales.map(\.id) == [outcome.transactionID])
        #expect(sales.first?.status == .approved && sales.first?.approvedAmount == 31_00)
        #expect(forwarded.withLock { $0 } == [outcome])
        // Forwarding again finds nothing left.
        #expect(try await terminal.offline.forward().outcomes.isEmpty)
        #expect(try await Self.sales(terminal).count == 1)
        try await sandbox.close(terminal)
    }

    /// The online attempt reached the gateway, which approved it, but the answer was lost:
    /// the forward under the same key returns that transaction instead of charging again,
    /// and recovery never reverses it.
    @Test func anOnlineAttemptThatReachedTheGatewayIsNotChargedTwice() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        outage.goDown(reaching: GatewayPaths.authorizeCard)
        let result = try await terminal.sale(Self.sale(32_00))
        #expect(result.status == .approvedOffline)
        outage.comeBack()
        let standing = try await Self.sales(terminal)
        #expect(standing.map(\.status) == [.approved])
        try await terminal.offline.forward()
        let outcome = try #require(try await terminal.offline.list().payments.first?.forwarded)
        #expect(outcome.transactionID == standing.first?.id && outcome.approved)
        let next = try await terminal.sale(PaymentParameters(amount: 33_00, currency: .eur))
        #expect(next.status == .approved)
        let sales = try await Self.sales(terminal)
        #expect(sales.count == 2 && sales.allSatisfy { $0.status == .approved })
        try await sandbox.close(terminal)
    }

    /// A crash after the sale was stored but before its journal entry ended: recovery finds the
    /// key in the store and ends the entry, instead of looking the attempt up and reversing the
    /// approval the gateway holds; the forward then returns that approval.
    @Test func recoveryLeavesAStoredSaleToTheStore() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        outage.goDown(reaching: GatewayPaths.authorizeCard)
        let result = try await terminal.sale(Self.sale(39_00))
        #expect(result.status == .approvedOffline)
        let journal = try PaymentJournal(path: sandbox.journalPath)
        var entry = try #require(try journal.all().first { $0.key == result.idempotencyKey })
        entry.state = .authorizing
        entry.outcome = .failed
        try await journal.write(entry)
        outage.comeBack()
        #expect(try await terminal.recovery.recoverUnfinishedAttempts().isEmpty)
        let ended = try #require(try journal.all().first { $0.key == result.idempotencyKey })
        #expect(ended.state == .finished && ended.outcome == .approvedOffline)
        let outcome = try #require(try await Self.forwardAll(terminal).first ?? nil)
        let sales = try await Self.sales(terminal)
        #expect(sales.map(\.id) == [outcome.transactionID] && sales.map(\.status) == [.approved])
        try await sandbox.close(terminal)
    }

    /// A crash after the gateway recorded the forward but before the mark was synced: the
    /// next forward sends the same key and gets the same transaction.
    @Test func aForwardWhoseMarkWasLostIsAnsweredFromTheFirstTime() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        let path = sandbox.journalPath + ".offline"
        // The login's offline authorization comes first.
        let sealed = try Self.size(path)
        outage.goDown(reaching: "/nothing")
        #expect(try await terminal.sale(Self.sale(34_00)).status == .approvedOffline)
        outage.comeBack()
        let first = try #require(try await Self.forwardAll(terminal).first ?? nil)
        // Take the mark away, as a crash before its fsync would.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(sealed + OfflineStore.slotSize))
        try handle.close()
        #expect(try Self.size(path) == sealed + OfflineStore.slotSize)
        let again = try #require(try await Self.forwardAll(terminal).first ?? nil)
        #expect(again.transactionID == first.transactionID && again.approved)
        #expect(try await Self.sales(terminal).count == 1)
        try await sandbox.close(terminal)
    }

    /// The card approved offline, the issuer does not when the sale is forwarded.
    @Test func aSaleOverTheBalanceIsDeclinedAfterTheFact() async throws {
        let sandbox = try await Sandbox { $0.cardID = "visa-debit" }
        let (terminal, outage) = try await Self.terminal(sandbox)
        outage.goDown(reaching: "/nothing")
        #expect(try await terminal.sale(Self.sale(600_00)).status == .approvedOffline)
        outage.comeBack()
        let outcome = try #require(try await Self.forwardAll(terminal).first ?? nil)
        #expect(!outcome.approved && outcome.responseCode == "51" && outcome.transactionID != nil)
        #expect(try await Self.sales(terminal).map(\.status) == [.declined])
        try await sandbox.close(terminal)
    }

    /// R9 through the terminal: a flipped record is reported and never forwarded; every intact
    /// one is.
    @Test func aDamagedRecordIsReportedAndTheIntactOnesAreForwarded() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        let tampering = Locked<[[Int]]>([])
        terminal.events.addHandler([.transaction]) { event in
            if case .offlineDataTampering(let slots) = event { tampering.withLock { $0.append(slots) } }
        }
        let path = sandbox.journalPath + ".offline"
        // The login's offline authorization comes first: the second sale's slot follows.
        let second = try Self.size(path) / OfflineStore.slotSize + 1
        outage.goDown(reaching: "/nothing")
        for amount in [35_01, 35_02, 35_03] as [Int64] {
            #expect(try await terminal.sale(Self.sale(amount)).status == .approvedOffline)
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[second * OfflineStore.slotSize + 1_000] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        outage.comeBack()
        let report = try await terminal.offline.forward()
        #expect(report.damagedSlots == [second])
        #expect(try await terminal.offline.list().payments.map { $0.forwarded?.approved } == [true, true])
        #expect(tampering.withLock { $0 }.contains([second]))
        let amounts = try await Self.sales(terminal).map(\.requestedAmount).sorted()
        #expect(amounts == [35_01, 35_03])
        try await sandbox.close(terminal)
    }

    @Test func aSwipeIsRefusedAsOnlineRequired() async throws {
        let sandbox = try await Sandbox {
            $0.cardID = "magstripe-only"; $0.entryMode = .magstripe
        }
        let (terminal, outage) = try await Self.terminal(sandbox)
        outage.goDown(reaching: "/nothing")
        let result = try await terminal.sale(Self.sale(36_00))
        #expect(result.status == .failed && result.error?.code == MPOSError.Code.onlineRequired)
        #expect(try await terminal.offline.list().payments.isEmpty)
        try await sandbox.close(terminal)
    }

    @Test func aLimitReachedIsRefusedAsOnlineRequired() async throws {
        let sandbox = try await Sandbox()
        let (terminal, outage) = try await Self.terminal(sandbox)
        await terminal.offline.setPolicy(OfflinePolicy(maximumPaymentAmount: 37_00))
        outage.goDown(reaching: "/nothing")
        #expect(try await terminal.sale(Self.sale(37_00)).status == .approvedOffline)
        let over = try await terminal.sale(Self.sale(37_01))
        #expect(over.status == .failed && over.error?.code == MPOSError.Code.offlineAmountLimit)
        #expect(try await terminal.offline.list().payments.count == 1)
        try await sandbox.close(terminal)
    }
}

/// The merchant's offline limits come from the gateway at login.
@Suite(.serialized, .timeLimit(.minutes(2))) struct OfflinePolicyFromGatewayTests {
    @Test func theLoginBringsTheMerchantsLimits() async throws {
        let sandbox = try await Sandbox()
        let database = SandboxGatewayConfiguration(
            port: 0, databasePath: sandbox.directory.appendingPathComponent("gateway.sqlite").path,
            passwordHashRounds: 1_000, logLevel: .error)
        try await SandboxGateway.setOfflinePolicy(
            database, merchantID: sandbox.credentials.merchantID,
            OfflinePolicyTerms(maximumPaymentAmount: 38_00, maximumStoredPayments: 5, maximumHoursOffline: 8))
        let (terminal, outage) = try await OfflineEndToEndTests.terminal(sandbox)
        #expect(
            await terminal.offline.policy
                == OfflinePolicy(
                    maximumPaymentAmount: 38_00, maximumStoredPayments: 5, maximumHoursOffline: 8))
        outage.goDown(reaching: "/nothing")
        let over = try await terminal.sale(OfflineEndToEndTests.sale(38_01))
        #expect(over.status == .failed && over.error?.code == MPOSError.Code.offlineAmountLimit)
        try await sandbox.close(terminal)
    }

    @Test func aMerchantWithoutLimitsGetsTheDefaultWindow() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        #expect(await terminal.offline.policy == .standard)
        try await sandbox.close(terminal)
    }
}
