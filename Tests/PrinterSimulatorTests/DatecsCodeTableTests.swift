import PrinterSimulator
import Testing

/// Datecs' `ESC u n` selects the code table, as the SDK's DPP-250 profile sends it.
@Suite(.timeLimit(.minutes(1))) struct DatecsCodeTableTests {
    @Test func escUSelectsTheDatecsTableAndTextDecodesInIt() {
        var decoder = EscPosDecoder()
        // 0x9D is Ø in CP850 and ¥ in CP437; 0xD5 is ı in CP850.
        let events = decoder.feed([0x1B, 0x75, 1, 0x9D, 0xD5, 0x1B, 0x75, 0, 0x9D])
        #expect(events == [.selectDatecsCodeTable(1), .text("Øı"), .selectDatecsCodeTable(0), .text("¥")])
    }

    @Test func anUnknownDatecsTableIsLoggedAndPC437Used() {
        var emulator = PrinterEmulator(model: .paper58mm)
        let output = emulator.receive([0x1B, 0x75, 13, 0x9D, 0x0A, 0x1D, 0x56, 0])
        #expect(output.log == ["Datecs code table 13 not available, using PC437"])
        #expect(output.jobs.first?.lines == ["¥"])
    }

    @Test func escT2SelectsPC850() {
        var decoder = EscPosDecoder()
        #expect(decoder.feed([0x1B, 0x74, 2, 0x9D]) == [.selectCodePage(2), .text("Ø")])
    }
}
