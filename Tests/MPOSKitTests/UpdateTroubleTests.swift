import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The TSM seed's troubleshooting list: the six troubles with the seed's words and advice, and
/// the two the terminal can see for itself (an update loop, a reader declining every payment
/// before the card prompt), detected end to end and in the pure watch.
@Suite(.serialized, .timeLimit(.minutes(3))) struct UpdateTroubleTests {
    @Test func theSeedsSixTroublesTwoOfWhichTheTerminalCanSee() {
        #expect(UpdateTrouble.allCases.count == 6)
        #expect(
            UpdateTrouble.allCases.filter(\.isDetectable) == [.keepsRebooting, .decliningBeforeCardPrompt])
        #expect(UpdateTrouble.keepsRebooting.symptom == "The terminal keeps rebooting.")
        #expect(
            UpdateTrouble.decliningBeforeCardPrompt.symptom
                == "Terminal loads correctly, but all transactions are declining before prompting for a card."
        )
        for trouble in UpdateTrouble.allCases {
            #expect(trouble.advice.hasPrefix("Direct the merchant to contact your technical support"))
        }
    }

    @Test func threeRestartsOntoOneImageAreALoopAndAnotherReaderStartsOver() {
        var watch = TroubleWatch()
        watch.restarted(onto: "img-1", reader: "A")
        watch.restarted(onto: "img-2", reader: "A")
        watch.restarted(onto: "img-1", reader: "A")
        #expect(watch.troubles(reader: "A").isEmpty)
        watch.restarted(onto: "img-1", reader: "A")
        #expect(watch.troubles(reader: "A") == [.keepsRebooting])
        #expect(watch.troubles(reader: "B").isEmpty)
        watch.restarted(onto: "img-1", reader: "B")
        #expect(watch.troubles(reader: "B").isEmpty)
        #expect(watch.troubles(reader: "A").isEmpty)
    }

    @Test func threeDeclinesInARowBeforeTheCardPromptAreTheReaderAndAPromptEndsIt() {
        var watch = TroubleWatch()
        watch.paymentEnded(declinedBeforeCardPrompt: true, reader: "A")
        watch.paymentEnded(declinedBeforeCardPrompt: true, reader: "A")
        watch.paymentEnded(declinedBeforeCardPrompt: false, reader: "A")
        watch.paymentEnded(declinedBeforeCardPrompt: true, reader: "A")
        watch.paymentEnded(declinedBeforeCardPrompt: true, reader: "A")
        #expect(watch.troubles(reader: "A").isEmpty)
        watch.paymentEnded(declinedBeforeCardPrompt: true, reader: "A")
        #expect(watch.troubles(reader: "A") == [.decliningBeforeCardPrompt])
        watch.paymentEnded(declinedBeforeCardPrompt: false, reader: "A")
        #expect(watch.troubles(reader: "A").isEmpty)
    }

    @Test func anImageThatNeverStaysInstalledIsReportedAsAnUpdateLoop() async throws {
        let sandbox = try await Sandbox { $0.imagesFailingToBoot = 3 }
        let terminal = try await TerminalUpdateTests.terminal(sandbox)
        try await TerminalUpdateTests.publish(
            sandbox, kind: .firmware, version: "2.0.0", bytes: TerminalUpdateTests.image(9_000, seed: 60))
        _ = try await terminal.updates.check()
        for attempt in 1...3 {
            #expect(await terminal.updates.troubles.isEmpty, "attempt \(attempt)")
            let result = await terminal.updates.downloadAndApply().result()
            #expect(result.type == .confirmUpdateFailed, "attempt \(attempt): \(result.message ?? "")")
        }
        #expect(await terminal.updates.troubles == [.keepsRebooting])
        #expect(await sandbox.reader.reboots == 3)
        try await sandbox.close(terminal)
    }

    @Test func aReaderDecliningEveryPaymentBeforeTheCardPromptIsReported() async throws {
        let sandbox = try await Sandbox { $0.declinesBeforeCardPrompt = true }
        let terminal = try await sandbox.terminal()
        for attempt in 1...3 {
            #expect(await terminal.updates.troubles.isEmpty, "payment \(attempt)")
            let result = try await terminal.sale(
                PaymentParameters(amount: Int64(5_00 + attempt), currency: .eur))
            #expect(result.status == .failed, "payment \(attempt)")
        }
        #expect(await terminal.updates.troubles == [.decliningBeforeCardPrompt])

        // A reader that asks for a card again clears it.
        await sandbox.reader.setDeclinesBeforeCardPrompt(false)
        let approved = try await terminal.sale(PaymentParameters(amount: 5_10, currency: .eur))
        #expect(approved.status == .approved)
        #expect(await terminal.updates.troubles.isEmpty)
        try await sandbox.close(terminal)
    }

    static func status(_ status: ReaderStatusCode) -> ReaderMessage {
        .statusReport(StatusReport(status: status, message: status.message, cancelAllowed: false))
    }

    @Test func theEngineTellsADeclineBeforeTheCardPromptFromACancelAndFromOneAfterIt() {
        var declined = PaymentEngineTests.engine()
        _ = declined.handle(.start)
        _ = declined.handle(.reader(Self.status(.processingError)))
        let failed = PaymentEngineTests.finished(
            declined.handle(.reader(PaymentEngineTests.outcome(.aac, .processingError))))
        #expect(failed?.status == .failed)
        #expect(declined.declinedBeforeCardPrompt)
        #expect(!declined.promptedForCard)

        var cancelled = PaymentEngineTests.engine()
        _ = cancelled.handle(.start)
        _ = cancelled.handle(.reader(PaymentEngineTests.outcome(.aac, .userCancelled)))
        #expect(!cancelled.declinedBeforeCardPrompt)

        var prompted = PaymentEngineTests.engine()
        _ = prompted.handle(.start)
        _ = prompted.handle(.reader(Self.status(.waitingCard)))
        _ = prompted.handle(.reader(PaymentEngineTests.outcome(.aac, .cardReadingFailed)))
        #expect(prompted.promptedForCard)
        #expect(!prompted.declinedBeforeCardPrompt)
    }
}
