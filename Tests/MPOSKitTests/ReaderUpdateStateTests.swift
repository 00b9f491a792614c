import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// The update status belongs to one reader and is judged at the moment of the payment.
@Suite(.timeLimit(.minutes(1))) struct ReaderUpdateStateTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    static func status(deadline: Date?, pending: Bool = true, blocked: Bool = false) -> TerminalUpdateStatus {
        TerminalUpdateStatus(
            TerminalInitializeResponse(
                hasUpdates: pending, updateDeadline: deadline, pending: [], registeredAt: start,
                graceUntil: start.addingTimeInterval(3 * 86_400), blocked: blocked))
    }

    @Test func aDeadlineRefusesFromItsMomentOnNotBefore() {
        var state = ReaderUpdateState()
        state.learned(Self.status(deadline: Self.start.addingTimeInterval(60)), reader: "A")
        #expect(state.refusal(reader: "A", at: Self.start.addingTimeInterval(59)) == nil)
        #expect(state.refusal(reader: "A", at: Self.start.addingTimeInterval(60)) == MPOSError.updateRequired)
        #expect(
            state.refusal(reader: "A", at: Self.start.addingTimeInterval(86_400)) == MPOSError.updateRequired)
    }

    @Test func nothingPendingOrNoDeadlineNeverRefuses() {
        var state = ReaderUpdateState()
        state.learned(Self.status(deadline: Self.start, pending: false), reader: "A")
        #expect(state.refusal(reader: "A", at: Self.start.addingTimeInterval(86_400)) == nil)
        state.learned(Self.status(deadline: nil), reader: "A")
        #expect(state.refusal(reader: "A", at: Self.start.addingTimeInterval(86_400)) == nil)
    }

    @Test func anotherReaderOrAForgottenStatusIsUnknown() {
        var state = ReaderUpdateState()
        state.learned(Self.status(deadline: Self.start, blocked: true), reader: "A")
        #expect(state.status(of: "A") != nil)
        #expect(state.status(of: "B") == nil)
        #expect(state.status(of: nil) == nil)
        #expect(state.refusal(reader: "B", at: Self.start.addingTimeInterval(86_400)) == nil)
        state.forget()
        #expect(state.status(of: "A") == nil)
        #expect(state.refusal(reader: "A", at: Self.start.addingTimeInterval(86_400)) == nil)
    }
}
