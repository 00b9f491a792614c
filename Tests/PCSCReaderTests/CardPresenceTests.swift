import Foundation
import MPOSTestSupport
import PCSCReader
import ReaderSimulator
import SandboxCards
import Testing
import VirtualSmartCard

/// Card insertions and removals come from PC/SC: a pcscd of the test's own with vpcd, and a
/// sandbox card put in and pulled out over vpcd's socket.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: LocalPCSC.missing == nil, "skipped: \(LocalPCSC.missing ?? "")"))
struct CardPresenceTests {
    @Test func aCardPutInAndPulledOutIsReportedByPCSC() async throws {
        let pcsc = try LocalPCSC()
        defer { pcsc.stop() }
        // Only this test talks to pcscd from this process.
        for (key, value) in pcsc.environment { setenv(key, value, 1) }
        let source = PCSCCardSource(readerName: pcsc.readerName, pin: "1234")
        var changes = try #require(source.presenceChanges()).makeAsyncIterator()
        #expect(await changes.next() == false)

        let visa = try #require(SandboxCards.card(id: "visa-credit"))
        let responder = APDUResponder(card: try SimulatedCard(card: visa), options: .init(pullAfter: 1))
        let card = Task {
            try await VPCDCardClient(slot: VirtualCardSlot(card: responder)).run(
                host: "127.0.0.1", port: pcsc.cardPort)
        }
        #expect(await changes.next() == true)

        let transport = try await source.connect()
        let selectPPSE: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x0E] + Array("2PAY.SYS.DDF01".utf8) + [0x00]
        #expect(try transport.transmit(selectPPSE).suffix(2) == [0x90, 0x00])
        #expect(try await card.value == .pulledOut)
        #expect(await changes.next() == false)
        #expect(throws: CardError(.removed, "")) { try transport.transmit(selectPPSE) }
    }
}
