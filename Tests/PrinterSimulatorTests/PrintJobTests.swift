import PrinterSimulator
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PrintJobTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func alignmentPadsToTheColumns() {
        var emulator = PrinterEmulator(model: .paper58mm)
        var input: [UInt8] = [0x1B, 0x40, 0x1B, 0x61, 1] + bytes("SHOP\n")
        input += [0x1B, 0x61, 2] + bytes("12.00\n")
        input += [0x1D, 0x21, 0x11, 0x1B, 0x61, 1] + bytes("TOTAL\n")
        input += [0x1D, 0x21, 0x00, 0x1B, 0x61, 0] + bytes("thanks\n") + [0x1D, 0x56, 66, 0]
        let output = emulator.receive(input)
        #expect(output.jobs.count == 1)
        let job = output.jobs[0]
        #expect(job.lines == [String(repeating: " ", count: 14) + "SHOP", String(repeating: " ", count: 27) + "12.00", "     TOTAL", "thanks"])
        #expect(job.cut)
        #expect(job.text == job.lines.map { $0 + "\n" }.joined())
    }

    @Test func longLinesWrapAtTheColumns() {
        var emulator = PrinterEmulator(model: .paper58mm)
        let output = emulator.receive(bytes(String(repeating: "x", count: 40) + "\n") + [0x1D, 0x56, 0])
        #expect(output.jobs.first?.lines == [String(repeating: "x", count: 32), String(repeating: "x", count: 8)])
    }

    @Test func feedLinesPrintsTheBufferAndBlankLines() {
        var emulator = PrinterEmulator(model: .paper58mm)
        let output = emulator.receive(bytes("A") + [0x1B, 0x64, 3] + [0x1D, 0x56, 0])
        #expect(output.jobs.first?.lines == ["A", "", ""])
    }

    @Test func paperOutStopsTheJobAndSaysWhere() {
        var emulator = PrinterEmulator(model: .paper58mm)
        var output = emulator.receive(bytes("one\ntwo\n"))
        emulator.state.paperOut = true
        output = emulator.receive(bytes("three\n") + [0x10, 0x04, 4, 0x1B, 0x70, 0, 1, 1, 0x1D, 0x56, 0])
        #expect(output.reply == [0x72])
        #expect(emulator.state.drawerOpen == false)
        let end = emulator.endOfStream()
        #expect(end.jobs.count == 1)
        #expect(end.jobs[0].lines == ["one", "two"])
        #expect(end.jobs[0].stop == PrintStop(reason: "paper out", linesPrinted: 2))
    }

    @Test func coverOpenPrintsNothing() {
        var emulator = PrinterEmulator(state: PrinterState(coverOpen: true))
        _ = emulator.receive(bytes("hello\n"))
        let end = emulator.endOfStream()
        #expect(end.jobs == [{ var job = PrintJob(); job.stop = PrintStop(reason: "cover open", linesPrinted: 0); return job }()])
    }

    @Test func drawerKickOpensTheDrawerAndIsLogged() {
        var emulator = PrinterEmulator()
        let output = emulator.receive([0x1B, 0x70, 1, 50, 100, 0x10, 0x04, 1])
        #expect(emulator.state.drawerOpen)
        #expect(output.log == ["drawer kick on pin 5 (100 ms on, 200 ms off)"])
        #expect(output.reply == [0x16])
    }

    @Test func qrAndRasterLandOnThePage() {
        var emulator = PrinterEmulator()
        var input: [UInt8] = [0x1D, 0x28, 0x6B, 3, 0, 49, 67, 5, 0x1D, 0x28, 0x6B, 3, 0, 49, 69, 49]
        input += [0x1D, 0x28, 0x6B, 5, 0, 49, 80, 48, 0x54, 0x58, 0x1D, 0x28, 0x6B, 3, 0, 49, 81, 48]
        input += [0x1D, 0x76, 0x30, 0, 1, 0, 1, 0, 0x80, 0x1D, 0x56, 0]
        let job = emulator.receive(input).jobs.first
        #expect(job?.elements == [
            .qrCode(data: [0x54, 0x58], moduleSize: 5, errorCorrection: 49),
            .raster(RasterImage(mode: 0, widthBytes: 1, height: 1, data: [0x80]), .left),
        ])
        #expect(job?.lines == [])
    }
}

@Suite(.timeLimit(.minutes(1)))
struct PageRendererTests {
    @Test func pageIsAsWideAsThePaperAndTextIsDrawn() {
        var emulator = PrinterEmulator(model: .paper58mm)
        let job = emulator.receive(Array("I\n".utf8) + [0x1D, 0x56, 0]).jobs[0]
        let (image, notes) = PageRenderer.render(job, model: .paper58mm)
        #expect(notes.isEmpty)
        #expect(image.width == 384)
        #expect(image.height == 30)
        // "I" is the glyph's middle column, seven dots drawn 2×2 each from x 5 and y 5.
        #expect((5..<19).allSatisfy { image[5, $0] && image[6, $0] })
        #expect(!image[5, 4] && !image[5, 19] && !image[7, 12])
        #expect(Array(image.pbm.prefix(10)) == Array("P4\n384 30\n".utf8))
        #expect(image.pbm.count == 10 + 48 * 30)
    }

    @Test func centredRasterIsPlacedInTheMiddle() {
        var emulator = PrinterEmulator(model: .paper58mm)
        let job = emulator.receive([0x1B, 0x61, 1, 0x1D, 0x76, 0x30, 0, 1, 0, 1, 0, 0x80, 0x1D, 0x56, 0]).jobs[0]
        let image = PageRenderer.render(job, model: .paper58mm).image
        #expect(image.height == 1)
        #expect((0..<384).filter { image[$0, 0] } == [188])
    }
}
