import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The reader's screen for the customer (issue 46, what Stripe and Square developers expect):
/// the cart while the merchant rings up, and questions answered on the reader, over the real
/// ReaderLink to the emulator.
@Suite(.timeLimit(.minutes(2)))
struct CustomerScreenTests {
    static let coffee = ReaderCart(
        lines: [.init(name: "Espresso", quantity: 2, unitAmount: 250), .init(name: "Croissant", unitAmount: 320)],
        tax: 95, currency: "EUR")

    @Test func theCartIsShownOnTheReaderAndAnEmptyOneClearsIt() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        #expect(Self.coffee.total == 915)
        try await terminal.reader.showCart(Self.coffee)
        #expect(await sandbox.reader.displayedCart == Self.coffee)
        try await terminal.reader.showCart(ReaderCart(lines: [], currency: "EUR"))
        #expect(await sandbox.reader.displayedCart == nil)
        try await sandbox.close(terminal)
    }

    @Test func aCartThatDoesNotAddUpIsRefusedBeforeItReachesTheReader() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        var wrong = Self.coffee
        wrong.total = 900
        let error = await #expect(throws: MPOSError.self) { try await terminal.reader.showCart(wrong) }
        #expect(error?.code == MPOSError.Code.invalidArgument && error?.message.contains("915") == true)
        let unnamed = ReaderCart(lines: [.init(name: "", unitAmount: 100)], currency: "EUR")
        await #expect(throws: MPOSError.invalidArgument) { try await terminal.reader.showCart(unnamed) }
        #expect(await sandbox.reader.displayedCart == nil)
        try await sandbox.close(terminal)
    }

    @Test func eachKindOfQuestionGetsTheCustomersAnswer() async throws {
        let sandbox = try await Sandbox {
            $0.customerAnswers = [.yesNo(false), .choice(index: 1), .text("ada@example.com"), .text("+31612345678")]
        }
        let terminal = try await sandbox.terminal()
        let reader = terminal.reader
        #expect(try await reader.collectInput(.init(prompt: "Join our loyalty programme?", kind: .yesNo)) == .yesNo(false))
        #expect(
            try await reader.collectInput(.init(prompt: "How was your visit?", kind: .choice, choices: ["Good", "Great", "Bad"]))
                == .choice(index: 1))
        #expect(try await reader.collectInput(.init(prompt: "E-mail for the receipt", kind: .email)) == .text("ada@example.com"))
        #expect(try await reader.collectInput(.init(prompt: "Phone number", kind: .phone)) == .text("+31612345678"))
        // Unscripted: a signature drawn on the reader's screen.
        guard case .signature(let drawn) = try await reader.collectInput(.init(prompt: "Sign here", kind: .signature)) else {
            Issue.record("no signature came back")
            return
        }
        #expect(!drawn.strokes.isEmpty)
        #expect(await sandbox.reader.questionsAsked.map(\.kind) == [.yesNo, .choice, .email, .phone, .signature])
        try await sandbox.close(terminal)
    }

    @Test func aQuestionNobodyAnswersTimesOutOnTheReadersClock() async throws {
        let clock = ManualClock()
        let sandbox = try await Sandbox(readerClock: clock) { $0.customerAnswers = [.timedOut] }
        let terminal = try await sandbox.terminal()
        let asked = Task {
            try await terminal.reader.collectInput(.init(prompt: "Donate to charity?", kind: .yesNo, timeoutSeconds: 30))
        }
        await clock.waitForSleeper(until: clock.now.offset + .seconds(30))
        clock.advance(by: .seconds(30))
        #expect(try await asked.value == .timedOut)
        try await sandbox.close(terminal)
    }

    @Test func aCancelWithdrawsTheQuestionAndNoPaymentStartsWhileItIsAsked() async throws {
        let clock = ManualClock()
        let sandbox = try await Sandbox(readerClock: clock) { $0.humanDelay = .seconds(20) }
        let terminal = try await sandbox.terminal()
        let asked = Task { try await terminal.reader.collectInput(.init(prompt: "Anything else?", kind: .text)) }
        await clock.waitForSleeper(until: clock.now.offset + .seconds(20))
        let busy = await #expect(throws: MPOSError.self) {
            try await terminal.sale(PaymentParameters(amount: 12_51, currency: .eur))
        }
        #expect(busy?.code == MPOSError.Code.terminalBusy)
        await #expect(throws: MPOSError.terminalBusy) { try await terminal.reader.showCart(Self.coffee) }
        #expect(try await terminal.cancel())
        #expect(try await asked.value == .skipped)
        // Once answered, the terminal is free again.
        try await terminal.reader.showCart(Self.coffee)
        try await sandbox.close(terminal)
    }

    @Test func aQuestionTheReaderCannotAskIsRefusedAsAnInvalidArgument() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let oneChoice = CustomerInputRequest(prompt: "Pick", kind: .choice, choices: ["Only"])
        await #expect(throws: MPOSError.invalidArgument) { try await terminal.reader.collectInput(oneChoice) }
        let tooLong = CustomerInputRequest(prompt: "Wait", kind: .yesNo, timeoutSeconds: 601)
        await #expect(throws: MPOSError.invalidArgument) { try await terminal.reader.collectInput(tooLong) }
        #expect(await sandbox.reader.questionsAsked.isEmpty)
        try await sandbox.close(terminal)
    }
}
