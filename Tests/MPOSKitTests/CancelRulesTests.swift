import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderSimulator
import Testing

@testable import MPOSKit

/// Handpoint's cancel: never during PIN entry (a typed error says why), and it stops the
/// reader's scanner as well as a payment.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct CancelRulesTests {
    @Test func theEngineKnowsWhenTheReaderIsAtPINEntry() {
        var engine = PaymentEngineTests.engine()
        _ = engine.handle(.start)
        _ = engine.handle(.reader(.statusReport(StatusReport(status: .pinInput, message: "PIN", cancelAllowed: false))))
        #expect(engine.isAtPINEntry && !engine.isCancelAllowed)
        _ = engine.handle(.reader(.statusReport(StatusReport(status: .pinInputCompleted, message: "PIN", cancelAllowed: false))))
        #expect(!engine.isAtPINEntry)
    }

    @Test func cancelDuringPINEntryIsRefusedWithATypedErrorAndTheSaleGoesOn() async throws {
        // The reader pauses a second (on its manual clock) at the card prompt and at PIN entry.
        let readerClock = ManualClock()
        let sandbox = try await Sandbox(readerClock: readerClock) { $0.humanDelay = .seconds(1) }
        let terminal = try await sandbox.terminal()
        let atPIN = Locked(false)
        terminal.events.addHandler([.status]) { event in
            if case .readerStatus(.pinInput, _, let cancelAllowed) = event, !cancelAllowed { atPIN.withLock { $0 = true } }
        }
        let sale = Task { try await terminal.sale(PaymentParameters(amount: 12_00, currency: .eur)) }
        await readerClock.waitForSleeper(until: .seconds(1))
        readerClock.advance(by: .seconds(1))
        await readerClock.waitForSleeper(until: .seconds(2))
        while !atPIN.withLock({ $0 }) { await Task.yield() }
        await #expect(throws: MPOSError.cancelDuringPINEntry) { try await terminal.cancel() }
        readerClock.advance(by: .seconds(1))
        let result = try await sale.value
        #expect(result.status == .approved && result.approvedAmount == 12_00)
        try await sandbox.close(terminal)
    }

    @Test func cancelWithNoPaymentStopsTheScanner() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let events = terminal.events.subscribe([.scanner])
        var iterator = events.makeAsyncIterator()
        #expect(try await terminal.cancel() == false)  // nothing runs: nothing to stop
        try await terminal.reader.enableScanner(multiScan: true)
        #expect(try await terminal.cancel())
        #expect(await iterator.next() == .scannerDisabled)
        #expect(await !sandbox.reader.scan("A-1"))  // off: not read
        try await sandbox.close(terminal)
    }
}
