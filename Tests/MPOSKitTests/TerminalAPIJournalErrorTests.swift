import Foundation
import GRDB
import MPOSCore
import TerminalAPI
import Testing

@testable import MPOSKit

/// A journal that cannot be read does not say whether a Terminal API request was charged
/// before: the request is answered with the journal's error, not run as a new payment, and a
/// TransactionStatus does not answer "not found" for it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct TerminalAPIJournalErrorTests {
    /// Makes the journal's entry for `serviceID` unreadable: its operation no longer parses, as
    /// a damaged page would read back.
    static func damageEntry(of serviceID: String, in path: String) throws {
        let key = NexoSession.key(for: NexoSession.Reference(saleID: "SALE_ID_42", serviceID: serviceID))
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: "UPDATE attempt SET operation = 'damaged' WHERE key = ?", arguments: [key.rawValue])
            #expect(db.changesCount == 1)
        }
        try database.close()
    }

    @Test func aRepeatedRequestWhoseEntryCannotBeReadIsAnsweredWithTheErrorAndNotRunAgain() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await TerminalAPIPerformTests.terminal(sandbox)
        let request = TerminalAPIPerformTests.payment("7.10", serviceID: "J1")
        let first = try TerminalAPIPerformTests.paymentResponse(try await terminal.perform(terminalAPIRequest: request))
        #expect(first.response.result == .success)
        await terminal.disconnect()
        // The app restarted and lost the answer; the journal's entry of that request is damaged.
        try Self.damageEntry(of: "J1", in: sandbox.journalPath)
        let restarted = try await TerminalAPIPerformTests.terminal(sandbox)
        let seen = Locked<[TerminalEvent]>([])
        // A handler sees each event before the operation that raised it goes on.
        restarted.events.addHandler([.transaction, .card]) { event in seen.withLock { $0.append(event) } }

        let again = try TerminalAPIPerformTests.paymentResponse(try await restarted.perform(terminalAPIRequest: request))
        #expect(again.response.result == .failure)
        #expect(again.response.errorCondition == .unavailableService)
        #expect(again.response.additionalResponse?.fields.first?.value.contains("journal") == true)
        // No card was asked for: the request did not start a payment.
        #expect(seen.withLock { $0.isEmpty }, "\(seen.withLock { $0 })")

        let status = try #require(
            try NexoCoder.decodeResponse(
                try await restarted.perform(terminalAPIRequest: TerminalAPIPerformTests.status(of: "J1", asking: "T9"))
            ).transactionStatusResponse)
        #expect(status.response.result == .failure)
        #expect(status.response.errorCondition != .notFound)
        #expect(try await TerminalAPIPerformTests.sales(on: restarted).count == 1)
        try await sandbox.close(restarted)
    }
}
