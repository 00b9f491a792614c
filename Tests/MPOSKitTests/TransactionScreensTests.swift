import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import Testing

@testable import MPOSKit

/// The transaction screens as a pure state machine driven by the terminal's events, and its
/// driver on a manual clock: what shows at each step, and when the success screen goes.
@Suite(.timeLimit(.minutes(1)))
struct TransactionScreensTests {
    static func screens(timeout: Double = 4) throws -> TransactionScreens {
        TransactionScreens(
            amount: 12_50, currency: .eur,
            parameters: try TransactionScreenParameters(successScreenTimeout: timeout))
    }

    @Test func theSuccessScreenTimeoutIsFourSecondsUnlessSetWithinHalfASecondToFour() throws {
        #expect(try TransactionScreenParameters().successScreenTimeout == .seconds(4))
        #expect(
            try TransactionScreenParameters(successScreenTimeout: 0.5).successScreenTimeout
                == .milliseconds(500))
        #expect(try TransactionScreenParameters(successScreenTimeout: 4).successScreenTimeout == .seconds(4))
        for bad in [0.49, 4.01, 0, -1, .infinity, .nan] {
            #expect(throws: MPOSError.invalidArgument, "\(bad)") {
                try TransactionScreenParameters(successScreenTimeout: bad)
            }
        }
    }

    @Test func aChipPaymentWithPINShowsEachStepInTurn() throws {
        var screens = try Self.screens()
        #expect(screens.screen.step == .presentCard && screens.screen.amount == "12.50 EUR")
        var steps: [TransactionScreen.Step] = [screens.screen.step]
        let events: [TerminalEvent] = [
            .card(.inserted),
            .applicationSelection([
                ApplicationCandidate(aid: [0xA0, 0, 0, 0, 0x04], label: "MASTERCARD"),
                ApplicationCandidate(aid: [0xA0, 0, 0, 0, 0x03], label: "VISA", preferredName: "Visa Debit"),
            ]),
            .pinEntry(digits: 1), .pinEntry(digits: 4), .authorizing, .completed(.approved),
        ]
        for (second, event) in events.enumerated() {
            screens.handle(event, at: .seconds(second))
            if steps.last != screens.screen.step { steps.append(screens.screen.step) }
            if case .applicationSelection = event {
                #expect(screens.screen.applications == ["MASTERCARD", "Visa Debit"])
            }
        }
        #expect(steps == [.presentCard, .readingCard, .chooseApplication, .enterPIN, .processing, .approved])
        #expect(screens.screen.prompt == "Approved" && screens.screen.amount == "12.50 EUR")
    }

    @Test func pinDigitsCountUpOnOneScreen() throws {
        var screens = try Self.screens()
        for digits in 1...4 { screens.handle(.pinEntry(digits: digits), at: .seconds(digits)) }
        #expect(screens.screen.step == .enterPIN && screens.screen.pinDigits == 4)
    }

    @Test func theReadersOwnPromptReplacesTheStepsSentence() throws {
        var screens = try Self.screens()
        screens.handle(
            .readerStatus(status: .waitingCard, message: "TAP OR INSERT", cancelAllowed: true), at: .zero)
        #expect(screens.screen.step == .presentCard && screens.screen.prompt == "TAP OR INSERT")
        screens.handle(.card(.tapped), at: .seconds(1))
        #expect(screens.screen.prompt == TransactionScreen.prompt(.readingCard))
    }

    @Test func theSuccessScreenGoesExactlyWhenItsTimeoutPasses() throws {
        var screens = try Self.screens(timeout: 2)
        screens.handle(.completed(.approvedOffline), at: .seconds(10))
        #expect(screens.screen.step == .approved && screens.dismissAt == .seconds(12))
        screens.timePassed(to: .milliseconds(11_999))
        #expect(screens.isPresented)
        screens.timePassed(to: .seconds(12))
        #expect(!screens.isPresented)
    }

    @Test func declinesCancelsAndFailuresStayUntilTheAppDismissesThem() throws {
        let cases: [(PaymentStatus, TransactionScreen.Step)] = [
            (.declined, .declined), (.cancelled, .cancelled), (.failed, .failed),
        ]
        for (status, step) in cases {
            var screens = try Self.screens()
            screens.handle(.authorizing, at: .seconds(1))
            screens.handle(.completed(status), at: .seconds(2))
            #expect(screens.screen.step == step && screens.dismissAt == nil)
            screens.timePassed(to: .seconds(3600))
            #expect(screens.isPresented)
            screens.dismiss()
            #expect(!screens.isPresented)
        }
    }

    @Test func eventsAfterTheEndChangeNothing() throws {
        var screens = try Self.screens()
        screens.handle(.completed(.declined), at: .seconds(1))
        screens.handle(.card(.inserted), at: .seconds(2))
        screens.handle(.completed(.approved), at: .seconds(3))
        #expect(screens.screen.step == .declined && screens.dismissAt == nil)
    }

    @Test func theDriverYieldsEachScreenAndEndsWhenTheSuccessScreenTimesOutOnTheClock() async throws {
        let clock = ManualClock()
        let (events, feed) = AsyncStream.makeStream(of: TerminalEvent.self)
        let stream = try Self.screens(timeout: 1.5).run(events: events, clock: clock)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.step == .presentCard)
        feed.yield(.card(.inserted))
        #expect(await iterator.next()?.step == .readingCard)
        feed.yield(.batteryLow(BatteryStatus(percentage: 9, isCharging: false, hasExternalPower: false)))
        feed.yield(.authorizing)
        #expect(await iterator.next()?.step == .processing)
        feed.yield(.completed(.approved))
        #expect(await iterator.next()?.step == .approved)
        // The success screen waits on the clock: nothing ends until 1.5 s have passed.
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .milliseconds(1_499))
        await Task.yield()
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        #expect(await iterator.next() == nil)
        feed.finish()
    }
}
