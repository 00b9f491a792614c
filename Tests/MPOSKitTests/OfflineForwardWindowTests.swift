import EMV
import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import ReaderSimulator
import SandboxCards
import Testing

@testable import MPOSKit

/// Forwarding through a window of concurrent requests with marks synced a window's worth at a
/// time: each stored sale still charged exactly once, one card's sales still in stored order.
@Suite(.serialized, .timeLimit(.minutes(3))) struct OfflineForwardWindowTests {
    /// Stored sales as the card gives them offline: the kernel of the reader simulator
    /// answered "unable to go online" and the card's TC is what is stored. One chip per card,
    /// so a card's counter (ATC) rises in stored order as on a real card.
    struct OfflineCards {
        private var kernels: [String: EMVKernel] = [:]
        private var nextDerivationID: UInt32 = 500

        mutating func sale(_ cardID: String, _ amount: Int64) throws -> AuthorizeCardRequest {
            if kernels[cardID] == nil {
                let card = try #require(SandboxCards.card(id: cardID))
                kernels[cardID] = EMVKernel(
                    card: try SimulatedCard(card: card),
                    reader: try EMVKernel.sandboxReader(derivationID: nextDerivationID),
                    terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
                nextDerivationID += 1
            }
            var kernel = try #require(kernels[cardID])
            defer { kernels[cardID] = kernel }
            var step = kernel.start(KernelTransaction(amount: amount, currency: .eur, entryMode: .chip))
            var online: AuthorizationData?
            while true {
                switch step {
                case .selectApplication: step = kernel.selectApplication(at: 0)
                case .enterPIN: step = kernel.enterPIN(SandboxCards.pin)
                case .goOnline(let request):
                    online = request
                    step = kernel.complete(
                        hostApproved: false, responseCode: EMVKernel.unableToGoOnlineResponseCode,
                        issuerAuthenticationData: nil)
                case .completed(let outcome):
                    let data = try #require(online)
                    #expect(outcome.cryptogramType == .tc)
                    return AuthorizeCardRequest(
                        kind: .sale,
                        parameters: PaymentParameters(amount: amount, currency: .eur, duplicateCheck: false),
                        emvData: Hex.encode(outcome.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
                        ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode,
                        cvm: data.cvm)
                case .failed(let failure): throw failure
                }
            }
        }
    }

    /// A terminal without a reader, holding `sales` stored offline; their ids in stored order,
    /// and the slot of the first (the login sealed its session in the slots before).
    static func stored(_ sandbox: Sandbox, _ sales: [(String, Int64)]) async throws
        -> (terminal: PaymentTerminal, ids: [UUID], firstSlot: Int)
    {
        let terminal = try await sandbox.terminal(connect: false)
        let path = sandbox.journalPath + ".offline"
        let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        var cards = OfflineCards()
        let requests = try sales.map { try cards.sale($0.0, $0.1) }
        let ids = try await terminal.offline.storeApproved(requests.map { ($0, IdempotencyKey()) })
        return (terminal, ids, before / OfflineStore.slotSize)
    }

    static func ledger(_ terminal: PaymentTerminal) async throws -> [Transaction] {
        try await terminal.reports.searchTransactions().items.filter { $0.kind == .sale }
    }

    static let sixCards: [(String, Int64)] = [
        ("visa-credit", 41_01), ("mastercard-2series", 41_02), ("discover", 41_03), ("unionpay", 41_04),
        ("amex", 41_05), ("signature", 41_06),
    ]

    /// A crash after the answers but before their marks were synced (the file as the
    /// kill would leave it, reopened by a new terminal): the next forward sends the same keys
    /// and gets the same transactions; the ledger holds each sale once.
    @Test func aBatchWhoseMarksWereLostIsAnsweredFromTheFirstTime() async throws {
        let sandbox = try await Sandbox()
        let (terminal, ids, firstSlot) = try await Self.stored(sandbox, Self.sixCards)
        let first = try await terminal.offline.forward()
        #expect(first.outcomes.map(\.id) == ids && first.outcomes.allSatisfy(\.approved))
        await terminal.disconnect()

        let path = sandbox.journalPath + ".offline"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64((firstSlot + ids.count) * OfflineStore.slotSize))
        try handle.close()
        let store = OfflineStore(path: path, keys: OfflineKeyFile(path: sandbox.journalPath + ".offline-key"))
        #expect(try await store.contents().pending.map(\.id) == ids)
        // Its login finds the sales waiting and starts the background forward, which this one
        // waits for or follows.
        let reopened = try await sandbox.terminal(connect: false)
        try await reopened.offline.forward()
        let again = try await reopened.offline.list().payments.map { $0.forwarded?.transactionID }
        #expect(again == first.outcomes.map(\.transactionID))
        let ledger = try await Self.ledger(reopened)
        #expect(Set(ledger.map(\.id)) == Set(first.outcomes.compactMap(\.transactionID)))
        #expect(ledger.count == ids.count && ledger.allSatisfy { $0.status == .approved })
        try await sandbox.close(reopened)
    }

    /// A sale the issuer declines when it is forwarded sits between approved ones of the same
    /// batch; one card's three sales go in stored order, so none is taken for a replay.
    @Test func aDeclineAfterTheFactInTheMiddleOfABatchStaysAlone() async throws {
        let sandbox = try await Sandbox()
        let sales: [(String, Int64)] = [
            ("visa-credit", 42_01), ("mastercard-2series", 42_02), ("visa-debit", 600_00), ("discover", 42_04),
            ("visa-credit", 42_05), ("visa-credit", 42_06),
        ]
        let (terminal, ids, _) = try await Self.stored(sandbox, sales)
        let events = Locked<[OfflineForwardOutcome]>([])
        terminal.events.addHandler([.transaction]) { event in
            if case .offlineForwarded(let outcome) = event { events.withLock { $0.append(outcome) } }
        }
        let report = try await terminal.offline.forward()
        #expect(report.outcomes.map(\.id) == ids)
        #expect(report.outcomes.map(\.approved) == [true, true, false, true, true, true])
        try #require(report.outcomes.count == sales.count)
        #expect(report.outcomes[2].responseCode == "51" && report.outcomes[2].transactionID != nil)
        #expect(events.withLock { $0 } == report.outcomes)
        let ledger = try await Self.ledger(terminal)
        #expect(ledger.count == sales.count)
        #expect(ledger.filter { $0.status == .declined }.map(\.id) == [report.outcomes[2].transactionID])
        try await sandbox.close(terminal)
    }

    /// A flipped slot among the stored sales: reported, never sent; the others are.
    @Test func aTamperedSlotInABatchIsSkippedAndReported() async throws {
        let sandbox = try await Sandbox()
        let (terminal, ids, firstSlot) = try await Self.stored(sandbox, Array(Self.sixCards.prefix(4)))
        let tampering = Locked<[[Int]]>([])
        terminal.events.addHandler([.transaction]) { event in
            if case .offlineDataTampering(let slots) = event { tampering.withLock { $0.append(slots) } }
        }
        let path = sandbox.journalPath + ".offline"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[(firstSlot + 2) * OfflineStore.slotSize + 700] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let report = try await terminal.offline.forward()
        #expect(report.damagedSlots == [firstSlot + 2] && tampering.withLock { $0 } == [[firstSlot + 2]])
        #expect(report.outcomes.map(\.id) == [ids[0], ids[1], ids[3]])
        let amounts = try await Self.ledger(terminal).map(\.requestedAmount).sorted()
        #expect(amounts == [41_01, 41_02, 41_04])
        try await sandbox.close(terminal)
    }

    /// Once forwarded sales are past their keeping time and there are enough of them, the pass
    /// that forwarded them compacts the store: they leave the file and the listing, the
    /// session's latest authorization stays, and the ledger holds each sale once.
    @Test func aForwardPassCompactsWhatItNoLongerNeedsToKeep() async throws {
        let sandbox = try await Sandbox()
        let sales = (0..<70).map { n in (Self.sixCards[n % 6].0, Int64(43_00 + n)) }
        let (terminal, ids, firstSlot) = try await Self.stored(sandbox, sales)
        await terminal.offline.keepForwardedSales(for: 0)
        let path = sandbox.journalPath + ".offline"
        let size = { try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) }
        #expect(try size() == (firstSlot + ids.count) * OfflineStore.slotSize)
        let report = try await terminal.offline.forward()
        #expect(report.outcomes.map(\.id) == ids && report.outcomes.allSatisfy(\.approved))
        #expect(try await terminal.offline.list().payments.isEmpty)
        #expect(try size() == OfflineStore.slotSize)
        #expect(try await terminal.offline.store.contents().authorization != nil)
        var query = TransactionSearchRequest()
        query.pageSize = 100
        let ledger = try await terminal.reports.searchTransactions(query).items.filter { $0.kind == .sale }
        #expect(ledger.count == ids.count && Set(ledger.map(\.id)).count == ids.count)
        try await sandbox.close(terminal)
    }

    /// The schedule: stored order kept, at most `window` in flight, never two sales of one card
    /// application on one date in flight, and a sale behind a waiting one waits too.
    @Test func oneCardsSalesAreNeverInFlightTogether() throws {
        var cards = OfflineCards()
        let sales: [(String, Int64)] = [
            ("visa-credit", 1_00), ("amex", 1_01), ("visa-credit", 1_02), ("discover", 1_03), ("amex", 1_04),
            ("unionpay", 1_05), ("signature", 1_06),
        ]
        let scopes = try sales.map { OfflineForwardSchedule.counterScope(try cards.sale($0.0, $0.1)) }
        #expect(Set(scopes).count == 5)
        var schedule = OfflineForwardSchedule(scopes, window: 3)
        #expect([schedule.nextToStart(), schedule.nextToStart(), schedule.nextToStart()] == [0, 1, nil])
        schedule.finished(1)
        // The second visa-credit sale waits for the first, and the amex one behind it waits too.
        #expect(schedule.nextToStart() == nil)
        schedule.finished(0)
        #expect([schedule.nextToStart(), schedule.nextToStart(), schedule.nextToStart()] == [2, 3, 4])
        #expect(schedule.nextToStart() == nil && schedule.running == 3)
        schedule.finished(3)
        #expect([schedule.nextToStart(), schedule.nextToStart()] == [5, nil])
        schedule.finished(2)
        schedule.finished(4)
        schedule.finished(5)
        #expect([schedule.nextToStart(), schedule.nextToStart()] == [6, nil])
        #expect(OfflineForwardSchedule(scopes, window: 0).window == 1)
    }
}
