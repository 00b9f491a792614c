import EMV
import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import Synchronization
import Testing

@testable import SandboxGateway

/// An issuer that approves by amount: amounts ending in 51 are declined, ending in 10 are
/// half approved; the card is whatever the test says.
struct FakeIssuer: PaymentIssuer {
    var pan = PAN("4761739001010010")!

    func verify(_ request: IssuerRequest, allowPartial: Bool, now: Date) throws(PaymentRuleViolation)
        -> IssuerVerification
    {
        guard request.encryptedCardData != [0] else {
            throw PaymentRuleViolation(.cardDataRejected, "bad envelope")
        }
        let amount = request.amount
        return IssuerVerification(pan: pan, expiry: "2812", cardholderName: "TEST/CARD", brand: "visa") {
            _ in
            let cents = amount % 100
            let approved = cents != 51
            let partial: Int64? = cents == 10 ? amount / 2 : nil
            return IssuerAnswer(
                approved: approved, approvedAmount: partial,
                responseCode: approved ? (partial == nil ? "00" : "10") : "51",
                authorizationCode: approved ? "A1B2C3" : nil,
                message: approved ? "Approved" : "Insufficient funds",
                issuerAuthenticationData: [1, 2, 3, 4, 0, 0, 0, 0])
        }
    }
}

/// A scratch ledger in a temporary directory.
struct ScratchLedger {
    let directory: URL
    let pool: DatabasePool
    /// The pool as the gateway's domain code sees it.
    let database: SQLiteGatewayDatabase

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pool = try DatabasePool(path: directory.appendingPathComponent("ledger.sqlite").path)
        var migrator = DatabaseMigrator()
        LedgerSchema.register(in: &migrator)
        try migrator.migrate(pool)
        database = SQLiteGatewayDatabase(pool: pool, instanceID: "gw_0000000000000000")
    }
}

/// EMV data carrying the amount and currency the gateway checks.
func emvData(amount: Int64, currencyNumeric: Int = 978) throws -> [UInt8] {
    var digits = String(amount)
    digits = String(repeating: "0", count: 12 - digits.count) + digits
    let amountBCD = try Hex.decode(digits)
    let cur = String(currencyNumeric)
    let currencyBCD = try Hex.decode(String(repeating: "0", count: 4 - cur.count) + cur)
    return try TLV.encode([
        TLV(0x9F02, value: amountBCD), TLV(0x5F2A, value: currencyBCD),
        TLV(0x4F, value: [0xA0, 0, 0, 0, 3, 0x10, 0x10]),
        TLV(0x50, value: Array("VISA CREDIT".utf8)), TLV(0x95, value: [0, 0, 0, 0, 0]),
    ])
}

@Suite(.timeLimit(.minutes(2))) struct PaymentServiceTests {
    let ledger: ScratchLedger
    let service: PaymentService
    let clock = ManualDateSource()

    init() throws {
        ledger = try ScratchLedger()
        let clock = self.clock
        service = PaymentService(
            database: ledger.database, writer: GroupCommitLedgerWriter(database: ledger.pool),
            issuer: FakeIssuer(),
            fingerprinter: CardFingerprinter(secret: Array(repeating: 7, count: 32)), now: clock.dateProvider)
    }

    func sale(
        _ amount: Int64, kind: TransactionKind = .sale, duplicateCheck: Bool = true, partial: Bool = false,
        mode: CaptureMode = .completedSale
    ) async throws -> LedgerTransaction {
        try await service.authorize(
            merchant: "m1",
            CardPaymentCommand(
                AuthorizeCardRequest(
                    kind: cardPaymentKind(kind),
                    parameters: PaymentParameters(
                        amount: amount, currency: .eur, duplicateCheck: duplicateCheck,
                        allowPartialApproval: partial, captureMode: mode),
                    emvData: Hex.encode(try emvData(amount: amount)), encryptedCardData: "01", ksn: "00",
                    entryMode: .chip, cvm: .notRequired)))
    }

    /// The API kind that records `kind`.
    func cardPaymentKind(_ kind: TransactionKind) -> CardPaymentKind {
        CardPaymentKind.allCases.first { $0.transactionKind == kind } ?? .sale
    }

    @Test func saleIsCapturedAndDuplicateRefused() async throws {
        let first = try await sale(1000)
        #expect(first.status == .approved && first.amountCaptured == 1000 && first.batchId != nil)
        #expect(first.maskedPan?.hasSuffix("0010") == true && first.maskedPan?.contains("*") == true)
        await #expect(throws: PaymentRuleViolation.self) { try await sale(1000) }
        #expect(try await sale(1000, duplicateCheck: false).status == .approved)
        clock.advance(by: 301)
        #expect(try await sale(1000).status == .approved)
    }

    @Test func declinesAndPartialApprovals() async throws {
        #expect(try await sale(1051).status == .declined)
        let partial = try await sale(2010, partial: true)
        #expect(partial.status == .partiallyApproved && partial.amountApproved == 1005)
        let refused = try await sale(3010)
        #expect(refused.status == .declined && refused.responseCode == "51")
    }

    @Test func unreadableCardDataIsRefused() async throws {
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.authorize(
                merchant: "m1",
                CardPaymentCommand(
                    AuthorizeCardRequest(
                        kind: .sale, parameters: PaymentParameters(amount: 500, currency: .eur),
                        emvData: Hex.encode(try emvData(amount: 500)),
                        encryptedCardData: "00", ksn: "00", entryMode: .chip, cvm: .notRequired)))
        }
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.authorize(
                merchant: "m1",
                CardPaymentCommand(
                    AuthorizeCardRequest(
                        kind: .sale, parameters: PaymentParameters(amount: 500, currency: .eur),
                        emvData: "FF", encryptedCardData: "01",
                        ksn: "00", entryMode: .chip, cvm: .notRequired)))
        }
    }

    @Test func authCaptureRefundFlow() async throws {
        let auth = try await sale(5000, kind: .authorization)
        #expect(auth.amountCaptured == 0)
        let (capture, captured) = try await service.capture(merchant: "m1", id: auth.id, amount: 4000)
        #expect(capture.kind == .capture && captured.amountCaptured == 4000)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.capture(merchant: "m1", id: auth.id, amount: nil)
        }
        _ = try await service.refund(merchant: "m1", id: auth.id, amount: 1500)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.refund(merchant: "m1", id: auth.id, amount: 2600)
        }
        let (_, refunded) = try await service.refund(merchant: "m1", id: auth.id, amount: nil)
        #expect(refunded.status == .refunded && refunded.amountRefunded == 4000)
        #expect(
            try await service.followUps(merchant: "m1", id: auth.id).map(\.kind) == [
                .capture, .refund, .refund,
            ])
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.transaction(merchant: "other", id: auth.id)
        }
    }

    @Test func tipUntilBatchCloseAndVoids() async throws {
        let tipSale = try await sale(1200, mode: .tipAdjustment)
        let (_, tipped) = try await service.adjustTip(merchant: "m1", id: tipSale.id, tip: 300)
        #expect(tipped.amountTip == 300)
        let plain = try await sale(1300)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.adjustTip(merchant: "m1", id: plain.id, tip: 1)
        }
        let (void, voided) = try await service.void(merchant: "m1", id: plain.id, reversal: false)
        #expect(void.kind == .saleVoid && voided.status == .reversed)
        let batch = try await service.closeBatch(merchant: "m1")
        #expect(batch.status == "closed" && batch.transactionCount == 1 && batch.netAmount == 1500)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.adjustTip(merchant: "m1", id: tipSale.id, tip: 400)
        }
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.void(merchant: "m1", id: tipSale.id, reversal: false)
        }
        #expect(
            try await service.void(merchant: "m1", id: tipSale.id, reversal: true).original.status
                == .reversed)
    }

    @Test func cashAndSepa() async throws {
        let cash = try await service.cash(
            merchant: "m1", CashCommand(CashPaymentRequest(amount: 700, currency: .eur)))
        #expect(cash.kind == .cash && cash.status == .approved && cash.batchId != nil)
        let cashRefund = try await service.cash(
            merchant: "m1", CashCommand(CashPaymentRequest(kind: .refund, amount: 200, currency: .eur)))
        #expect(cashRefund.kind == .refund)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.cash(
                merchant: "m1", CashCommand(CashPaymentRequest(kind: .capture, amount: 200, currency: .eur)))
        }
        let sepa = try await service.sepa(
            merchant: "m1",
            SEPACommand(
                SEPAPaymentRequest(
                    amount: 900, currency: .eur, encryptedCardData: "01", ksn: "00", entryMode: .chip)))
        #expect(sepa.kind == .sepa && sepa.maskedPan?.hasSuffix("0010") == true)
        await #expect(throws: PaymentRuleViolation.self) {
            try await service.sepa(
                merchant: "m1",
                SEPACommand(
                    SEPAPaymentRequest(
                        amount: 900, currency: .usd, encryptedCardData: "01", ksn: "00", entryMode: .chip)))
        }
    }

    @Test func groupCommitKeepsFailuresApart() async throws {
        let writer = GroupCommitLedgerWriter(database: ledger.pool)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                group.addTask {
                    do {
                        try await writer.write { db in
                            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (v INTEGER UNIQUE)")
                            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index % 25])
                        }
                        return true
                    } catch { return false }
                }
            }
            var successes = 0
            for try await ok in group where ok { successes += 1 }
            #expect(successes == 25)
        }
        #expect(try await ledger.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 25)
    }

    /// The savepoints of the group commit are nested (the job's, then the idempotent write's
    /// own): an inner failure undoes only the inner writes, an outer one undoes all of them,
    /// inner writes already released included.
    @Test func cachedSavepointsNestAsSQLiteSavepointsDo() async throws {
        struct Refused: Error {}
        let writer = GroupCommitLedgerWriter(database: ledger.pool)
        _ = try await writer.write { db in try db.execute(sql: "CREATE TABLE s (v TEXT)") }
        try await writer.write { db in
            try db.execute(sql: "INSERT INTO s VALUES ('outer')")
            do {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO s VALUES ('inner refused')")
                    throw Refused()
                }
                Issue.record("the savepoint did not throw")
            } catch is Refused {}
            _ = try db.inSavepoint { try db.execute(sql: "INSERT INTO s VALUES ('inner kept')") }
        }
        do {
            try await writer.write { db in
                _ = try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO s VALUES ('released, then undone')")
                }
                throw Refused()
            }
            Issue.record("the write did not throw")
        } catch is Refused {}
        let rows = try await ledger.pool.read {
            try String.fetchAll($0, sql: "SELECT v FROM s ORDER BY rowid")
        }
        #expect(rows == ["outer", "inner kept"])
        // Outside a transaction it opens one of its own.
        try await ledger.pool.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try db.inCachedSavepoint { try db.execute(sql: "INSERT INTO s VALUES ('alone')") }
            #expect(!db.isInsideTransaction)
        }
        #expect(try await ledger.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM s") } == 3)
    }
}
