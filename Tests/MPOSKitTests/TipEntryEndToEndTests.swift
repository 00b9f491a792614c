import Foundation
import GRDB
import GatewayAPI
import MPOSCore
import ReaderLink
import ReaderSimulator
import Testing

@testable import MPOSKit

/// Tip entry on the reader, end to end: the app offers tips, the simulated reader (over TCP)
/// asks the cardholder after the card is read, the card's cryptogram covers the total, the
/// gateway's issuer verifies it and the ledger keeps the tip apart, as a tip adjustment does.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TipEntryEndToEndTests {
    static func tipped(_ amount: Int64, allowPartial: Bool = false) -> PaymentParameters {
        var parameters = PaymentParameters(amount: amount, currency: .eur, allowPartialApproval: allowPartial)
        parameters.tipOptions = TipOptions(percentages: [10, 15, 20], allowsCustomAmount: true)
        return parameters
    }

    /// The ledger row of `id` as stored: approved amount, tip and refunded amount.
    static func ledgerRow(_ sandbox: Sandbox, _ id: TransactionID?) throws -> (approved: Int64, tip: Int64, status: String) {
        let id = try #require(id)
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(
            path: sandbox.directory.appendingPathComponent("gateway.sqlite").path, configuration: configuration)
        defer { try? database.close() }
        let row = try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT amount_approved, amount_tip, status FROM payment_transaction WHERE id = ?",
                arguments: [id.rawValue])
        }
        let found = try #require(row)
        return (found["amount_approved"], found["amount_tip"], found["status"])
    }

    @Test func theCardholderPicks15PercentAndTheLedgerTheReceiptAndTheDetailsCarryTheTip() async throws {
        let sandbox = try await Sandbox { $0.tipChoice = .percentage(15) }
        let terminal = try await sandbox.terminal()
        let prompts = Locked<[String]>([])
        terminal.events.addHandler([.status]) { event in
            if case .readerStatus(.tipInput, let message, _) = event { prompts.withLock { $0.append(message) } }
        }
        let result = try await terminal.sale(Self.tipped(42_00))
        // The gateway's issuer approved a cryptogram over 48.30 (it declines one whose 9F02
        // differs from the amount it checks).
        #expect(result.status == .approved && result.responseCode == "00")
        #expect(result.approvedAmount == 42_00 && result.tipAmount == 6_30 && result.tipPercentage == 15)
        #expect(result.totalAmount == 48_30)
        #expect(prompts.withLock { $0 } == ["Waiting for gratuity"])

        let row = try Self.ledgerRow(sandbox, result.transactionID)
        #expect(row.approved == 42_00 && row.tip == 6_30 && row.status == "approved")
        let record = try await OperationsEndToEndTests.record(result.transactionID, on: terminal)
        #expect(record.tipAmount == 6_30 && record.totalAmount == 48_30)

        let receipt = result.customerReceipt
        #expect(receipt.contains("Tip") && receipt.contains("6.30 EUR"))
        #expect(receipt.contains("42.00 EUR") && receipt.contains("48.30 EUR"))

        let details = TransactionDetails(result)
        #expect(details.gratuityAmount == 6_30 && details.gratuityBasisPoints == 15_00 && details.totalAmount == 48_30)
        let xml = details.xml
        #expect(xml.contains("<GratuityAmount>630</GratuityAmount>") && xml.contains("<TotalAmount>4830</TotalAmount>"))
        try await sandbox.close(terminal)
    }

    @Test func aRefundOfATippedSaleGivesBackTheTipToo() async throws {
        let sandbox = try await Sandbox { $0.tipChoice = .amount(5_00) }
        let terminal = try await sandbox.terminal()
        let sale = try await terminal.sale(Self.tipped(31_00))
        #expect(sale.status == .approved && sale.tipAmount == 5_00 && sale.tipPercentage == nil)
        let refund = try await terminal.refund(transactionID: try #require(sale.transactionID))
        #expect(refund.status == .approved && refund.approvedAmount == 36_00)
        #expect(try Self.ledgerRow(sandbox, sale.transactionID).status == "refunded")
        try await sandbox.close(terminal)
    }

    @Test func theTipCanTipTheSaleOverTheCardsBalance() async throws {
        // The debit card holds 500.00: 450.00 alone would pass, 450.00 + 15 % does not.
        let sandbox = try await Sandbox {
            $0.cardID = "visa-debit"
            $0.tipChoice = .percentage(15)
        }
        let terminal = try await sandbox.terminal()
        let declined = try await terminal.sale(Self.tipped(450_00))
        #expect(declined.status == .declined && declined.responseCode == "51")
        #expect(declined.approvedAmount == 0 && declined.tipAmount == 67_50)
        #expect(try Self.ledgerRow(sandbox, declined.transactionID).tip == 0)

        // With partial approval the 500.00 covers the amount first, then what it can of the tip.
        let partial = try await terminal.sale(Self.tipped(450_00, allowPartial: true))
        #expect(partial.status == .approved && partial.approvedAmount == 450_00 && partial.tipAmount == 50_00)
        #expect(partial.tipPercentage == nil)
        let row = try Self.ledgerRow(sandbox, partial.transactionID)
        #expect(row.approved == 450_00 && row.tip == 50_00 && row.status == "partiallyApproved")
        try await sandbox.close(terminal)
    }

    @Test func aLostAnswerIsRecoveredWithTheTipAndChargedOnce() async throws {
        let sandbox = try await Sandbox { $0.tipChoice = .percentage(10) }
        let transport = DroppingTransport()
        let terminal = try await sandbox.terminal(transport: transport)
        transport.dropAnswers(to: GatewayPaths.authorizeCard)
        // 21.00: 20.00 is the sandbox's amount the cardholder cancels at.
        let result = try await terminal.sale(Self.tipped(21_00))
        #expect(result.status == .approved && result.recovered)
        #expect(result.tipAmount == 2_10 && result.totalAmount == 23_10)
        #expect(transport.sent.filter { $0 == "POST \(GatewayPaths.authorizeCard)" }.count == 1)
        #expect(try Self.ledgerRow(sandbox, result.transactionID).tip == 2_10)
        try await sandbox.close(terminal)
    }

    @Test func tipOptionsGoWithASaleOnlyAndBadOnesNeverReachTheReader() async throws {
        let sandbox = try await Sandbox { $0.tipChoice = .percentage(15) }
        let terminal = try await sandbox.terminal()
        await #expect(throws: MPOSError.invalidTipOptions) { try await terminal.authorize(Self.tipped(10_00)) }
        await #expect(throws: MPOSError.invalidTipOptions) {
            try await terminal.refundUnreferenced(Self.tipped(10_00))
        }
        var bad = Self.tipped(10_00)
        bad.tipOptions = TipOptions(percentages: [150])
        await #expect(throws: MPOSError.invalidTipOptions) { try await terminal.sale(bad) }
        #expect(await sandbox.reader.completedTransactions == 0)
        try await sandbox.close(terminal)
    }
}
