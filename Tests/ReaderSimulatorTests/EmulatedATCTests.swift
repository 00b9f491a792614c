import Foundation
import SandboxCards
import Testing

@testable import ReaderSimulator

/// The emulated chip's ATC starts from the time of day, so that a restarted emulator never
/// repeats a counter a long-lived gateway has seen for the card that day.
@Suite(.timeLimit(.minutes(1))) struct EmulatedATCTests {
    static let midnight = Date(timeIntervalSince1970: 1_794_960_000)  // 2026-11-18 00:00 UTC

    static func chip() throws -> SimulatedCard {
        try SimulatedCard(card: SandboxCards.card(id: "visa-credit")!)
    }

    @Test func aRestartLaterThatDayContinuesAboveTheEarlierRun() throws {
        var first = try Self.chip()
        first.alignATC(to: Self.midnight.addingTimeInterval(9 * 3_600))
        var last: UInt16 = 0
        for _ in 0..<100 { last = first.nextATC() }
        #expect(last == 16_300)

        var restarted = try Self.chip()
        restarted.alignATC(to: Self.midnight.addingTimeInterval(9 * 3_600 + 300))
        #expect(restarted.nextATC() > last)
    }

    @Test func theCounterNeverGoesBackWithinADayAndStartsAgainTheNext() throws {
        var chip = try Self.chip()
        chip.alignATC(to: Self.midnight.addingTimeInterval(12 * 3_600))
        for _ in 0..<20_000 { _ = chip.nextATC() }
        let busy = chip.atc
        chip.alignATC(to: Self.midnight.addingTimeInterval(12 * 3_600 + 10))
        #expect(chip.atc == busy)
        chip.alignATC(to: Self.midnight.addingTimeInterval(86_400 + 60))
        #expect(chip.nextATC() == 31)
    }
}
