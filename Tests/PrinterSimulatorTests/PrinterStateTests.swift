import PrinterSimulator
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PrinterStateTests {
    @Test func readyPrinterAnswersTheFixedBitsOnly() {
        let state = PrinterState()
        #expect(state.statusByte(for: 1) == 0x12)
        #expect(state.statusByte(for: 2) == 0x12)
        #expect(state.statusByte(for: 3) == 0x12)
        #expect(state.statusByte(for: 4) == 0x12)
        #expect(state.statusByte(for: 5) == nil)
    }

    @Test func everyFlagCombinationAnswersItsBits() {
        for paperOut in [false, true] {
            for coverOpen in [false, true] {
                for nearEnd in [false, true] {
                    for drawer in [false, true] {
                        let state = PrinterState(paperOut: paperOut, paperNearEnd: nearEnd, coverOpen: coverOpen, drawerOpen: drawer)
                        let offline: UInt8 = paperOut || coverOpen ? 0x08 : 0
                        let printer: UInt8 = 0x12 | offline | (drawer ? 0x04 : 0)
                        let cause: UInt8 = 0x12 | (coverOpen ? 0x04 : 0) | (paperOut ? 0x20 : 0)
                        let paper: UInt8 = 0x12 | (nearEnd ? 0x0C : 0) | (paperOut ? 0x60 : 0)
                        #expect(state.statusByte(for: 1) == printer)
                        #expect(state.statusByte(for: 2) == cause)
                        #expect(state.statusByte(for: 4) == paper)
                        #expect(state.canPrint == !(paperOut || coverOpen))
                    }
                }
            }
        }
    }

    @Test func emulatorAnswersStatusRequestsInOrder() {
        var emulator = PrinterEmulator(state: PrinterState(paperOut: true, coverOpen: true))
        let output = emulator.receive([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4])
        #expect(output.reply == [0x1A, 0x36, 0x72])
    }

    @Test func columnsChooseThePaper() {
        #expect(PrinterModel(columns: 32) == .paper58mm)
        #expect(PrinterModel(columns: 48)?.dotsPerLine == 576)
        #expect(PrinterModel(columns: 40) == nil)
    }
}
