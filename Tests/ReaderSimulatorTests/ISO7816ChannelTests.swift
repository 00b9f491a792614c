import Synchronization
import Testing

@testable import ReaderSimulator

/// The T=0 transport rules, against scripted cards.
@Suite(.timeLimit(.minutes(1))) struct ISO7816ChannelTests {
    /// Answers from a script and keeps the commands it got.
    final class ScriptedCard: APDUTransport {
        let state: Mutex<(answers: [[UInt8]], commands: [[UInt8]])>
        init(_ answers: [[UInt8]]) { state = Mutex((answers, [])) }
        var commands: [[UInt8]] { state.withLock { $0.commands } }
        func transmit(_ command: [UInt8]) throws(CardError) -> [UInt8] {
            let answer = state.withLock { state -> [UInt8]? in
                state.commands.append(command)
                return state.answers.isEmpty ? nil : state.answers.removeFirst()
            }
            guard let answer else { throw CardError(.removed, "no more answers") }
            return answer
        }
    }

    @Test func wrongLengthResendsTheCommandWithTheLengthTheCardNames() throws {
        let card = ScriptedCard([[0x6C, 0x03], [0xAA, 0xBB, 0xCC, 0x90, 0x00]])
        let response = try ISO7816Channel(transport: card).transmit(
            CommandAPDU(cla: 0x00, ins: 0xB2, p1: 1, p2: 0x0C, le: 0))
        #expect(response == ResponseAPDU(data: [0xAA, 0xBB, 0xCC], sw: 0x9000))
        #expect(card.commands == [[0x00, 0xB2, 0x01, 0x0C, 0x00], [0x00, 0xB2, 0x01, 0x0C, 0x03]])
    }

    @Test func bytesAvailableAreFetchedWithGetResponseUntilTheCardSays9000() throws {
        let card = ScriptedCard([[0x61, 0x04], [1, 2, 0x61, 0x02], [3, 4, 0x90, 0x00]])
        let response = try ISO7816Channel(transport: card).transmit(
            CommandAPDU(cla: 0x80, ins: 0xAE, p1: 0x80, p2: 0, data: [9, 9], le: 0))
        #expect(response == ResponseAPDU(data: [1, 2, 3, 4], sw: 0x9000))
        #expect(
            card.commands.dropFirst() == [[0x00, 0xC0, 0x00, 0x00, 0x04], [0x00, 0xC0, 0x00, 0x00, 0x02]])
    }

    @Test func aCardThatKeepsAskingForMoreRoundsIsAnError() {
        let card = ScriptedCard(Array(repeating: [0x61, 0x01], count: 100))
        #expect(throws: CardError(.unexpectedAnswer, "")) {
            try ISO7816Channel(transport: card).transmit(
                CommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: [1], le: 0))
        }
    }

    @Test func aCardGoneMidExchangeIsRemoved() {
        let card = ScriptedCard([[0x61, 0x10]])
        #expect(throws: CardError(.removed, "")) {
            try ISO7816Channel(transport: card).transmit(
                CommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: [1], le: 0))
        }
    }

    @Test func commandAPDUsRoundTripInEveryCase() {
        let commands = [
            CommandAPDU(cla: 0, ins: 0x82, p1: 0, p2: 0),
            CommandAPDU(cla: 0, ins: 0xB2, p1: 1, p2: 0x0C, le: 0),
            CommandAPDU(cla: 0, ins: 0x20, p1: 0, p2: 0x80, data: [0x24, 0x12, 0x34, 0xFF]),
            CommandAPDU(cla: 0x80, ins: 0xAE, p1: 0x80, p2: 0, data: [1, 2, 3], le: 0),
        ]
        for command in commands { #expect(CommandAPDU(bytes: command.bytes) == command) }
        #expect(CommandAPDU(bytes: [0, 0xA4, 4, 0, 5, 1]) == nil)
        #expect(commands[2].description == "00200080")
    }
}
