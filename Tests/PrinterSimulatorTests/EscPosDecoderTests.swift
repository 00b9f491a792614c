import PrinterSimulator
import Testing

private func decode(_ bytes: [UInt8]) -> [EscPosEvent] {
    var decoder = EscPosDecoder()
    return decoder.feed(bytes) + decoder.finish()
}

@Suite(.timeLimit(.minutes(1)))
struct EscPosDecoderTests {
    @Test func formattingCommandsDecodeExactly() {
        #expect(decode([0x1B, 0x40]) == [.initialize])
        #expect(decode([0x1B, 0x74, 19]) == [.selectCodePage(19)])
        #expect(decode([0x1B, 0x61, 0, 0x1B, 0x61, 49, 0x1B, 0x61, 2]) == [.justification(.left), .justification(.center), .justification(.right)])
        #expect(decode([0x1B, 0x45, 1, 0x1B, 0x45, 0]) == [.emphasis(true), .emphasis(false)])
        #expect(decode([0x1D, 0x21, 0x11, 0x1D, 0x21, 0x70]) == [.characterSize(width: 2, height: 2), .characterSize(width: 8, height: 1)])
        #expect(decode([0x1B, 0x64, 3]) == [.feedLines(3)])
        #expect(decode([0x41, 0x0A]) == [.text("A"), .lineFeed])
    }

    @Test func everyCutFormDecodes() {
        #expect(decode([0x1D, 0x56, 0]) == [.cut(Cut(partial: false, feed: nil))])
        #expect(decode([0x1D, 0x56, 48]) == [.cut(Cut(partial: false, feed: nil))])
        #expect(decode([0x1D, 0x56, 1]) == [.cut(Cut(partial: true, feed: nil))])
        #expect(decode([0x1D, 0x56, 49]) == [.cut(Cut(partial: true, feed: nil))])
        #expect(decode([0x1D, 0x56, 65, 3]) == [.cut(Cut(partial: false, feed: 3))])
        #expect(decode([0x1D, 0x56, 66, 0]) == [.cut(Cut(partial: true, feed: 0))])
        #expect(decode([0x1D, 0x56, 97, 5]) == [.cut(Cut(partial: false, feed: 5))])
        #expect(decode([0x1D, 0x56, 98, 5]) == [.cut(Cut(partial: true, feed: 5))])
        #expect(decode([0x1D, 0x56, 103, 7]) == [.cut(Cut(partial: false, feed: 7))])
        #expect(decode([0x1D, 0x56, 104, 7]) == [.cut(Cut(partial: true, feed: 7))])
    }

    @Test func drawerKickNamesThePin() {
        #expect(decode([0x1B, 0x70, 0, 25, 250]) == [.drawerKick(pin: .pin2, onTime: 25, offTime: 250)])
        #expect(decode([0x1B, 0x70, 48, 1, 2]) == [.drawerKick(pin: .pin2, onTime: 1, offTime: 2)])
        #expect(decode([0x1B, 0x70, 1, 1, 2]) == [.drawerKick(pin: .pin5, onTime: 1, offTime: 2)])
        #expect(decode([0x1B, 0x70, 49, 1, 2]) == [.drawerKick(pin: .pin5, onTime: 1, offTime: 2)])
        #expect(decode([0x1B, 0x70, 7, 1, 2]) == [.skipped([0x1B, 0x70, 7, 1, 2])])
    }

    @Test func statusRequestsDecode() {
        #expect(decode([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4]) == [.statusRequest(1), .statusRequest(2), .statusRequest(4)])
    }

    @Test func qrFunctionsDecode() {
        let store: [UInt8] = [0x1D, 0x28, 0x6B, 7, 0, 49, 80, 48] + Array("ABCD".utf8)
        #expect(decode(store) == [.qrCode(.store(Array("ABCD".utf8)))])
        #expect(decode([0x1D, 0x28, 0x6B, 3, 0, 49, 81, 48]) == [.qrCode(.print)])
        #expect(decode([0x1D, 0x28, 0x6B, 3, 0, 49, 67, 6]) == [.qrCode(.moduleSize(6))])
        #expect(decode([0x1D, 0x28, 0x6B, 3, 0, 49, 69, 49]) == [.qrCode(.errorCorrection(49))])
        #expect(decode([0x1D, 0x28, 0x6B, 4, 0, 49, 65, 50, 0]) == [.qrCode(.selectModel(50))])
        #expect(decode([0x1D, 0x28, 0x6B, 3, 0, 49, 82, 48]) == [.qrCode(.other(function: 82, parameters: [48]))])
        #expect(decode([0x1D, 0x28, 0x6B, 3, 0, 48, 65, 0]) == [.otherSymbol(cn: 48, function: 65)])
    }

    @Test func rasterImageDecodesWithItsData() {
        let bytes: [UInt8] = [0x1D, 0x76, 0x30, 0, 2, 0, 2, 0, 0xFF, 0x00, 0x0F, 0xF0, 0x41]
        let image = RasterImage(mode: 0, widthBytes: 2, height: 2, data: [0xFF, 0x00, 0x0F, 0xF0])
        #expect(decode(bytes) == [.rasterImage(image), .text("A")])
    }

    @Test func oversizedRasterIsCappedAndSkippedWithoutBuffering() {
        var decoder = EscPosDecoder(rasterByteLimit: 4096)
        let header: [UInt8] = [0x1D, 0x76, 0x30, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(decoder.feed(header) == [.rasterTooLarge(widthBytes: 65535, height: 65535)])
        // The claimed data is streamed past in pieces and never held.
        let chunk = [UInt8](repeating: 0x41, count: 65536)
        for _ in 0..<4 {
            #expect(decoder.feed(chunk).isEmpty)
            #expect(decoder.bufferedByteCount == 0)
        }
        var small = EscPosDecoder(rasterByteLimit: 3)
        #expect(small.feed([0x1D, 0x76, 0x30, 0, 2, 0, 2, 0, 1, 2, 3, 4, 0x42]) == [.rasterTooLarge(widthBytes: 2, height: 2), .text("B")])
    }

    @Test func unknownCommandsAreSkippedByKnownLengthOrTwoBytes() {
        // ESC ! n (print mode) and GS L nL nH are known lengths; ESC 0x01 is unknown.
        #expect(decode([0x1B, 0x21, 0x41, 0x42]) == [.skipped([0x1B, 0x21, 0x41]), .text("B")])
        #expect(decode([0x1D, 0x4C, 0x41, 0x41, 0x42]) == [.skipped([0x1D, 0x4C, 0x41, 0x41]), .text("B")])
        #expect(decode([0x1B, 0x01, 0x42]) == [.skipped([0x1B, 0x01]), .text("B")])
        #expect(decode([0x1D, 0x28, 0x4C, 2, 0, 0x41, 0x41, 0x42]) == [.skipped([0x1D, 0x28, 0x4C, 2, 0, 0x41, 0x41]), .text("B")])
        #expect(decode([0x1D, 0x6B, 0x04, 0x31, 0x32, 0x00, 0x42]) == [.skipped([0x1D, 0x6B, 0x04, 0x31, 0x32, 0x00]), .text("B")])
        #expect(decode([0x07, 0x42]) == [.skipped([0x07]), .text("B")])
    }

    @Test func textDecodesInBothCodePages() {
        // 0x9B is ¢ in PC437 and ø in PC858; 0xD5 is ╒ in PC437 and € in PC858.
        #expect(decode([0x9B, 0xD5, 0x81]) == [.text("¢╒ü")])
        #expect(decode([0x1B, 0x74, 19, 0x9B, 0xD5, 0x81]) == [.selectCodePage(19), .text("ø€ü")])
        #expect(decode([0x1B, 0x74, 19, 0x1B, 0x40, 0x9B]) == [.selectCodePage(19), .initialize, .text("¢")])
    }

    @Test func commandsSplitAcrossFeedsDecodeOnce() {
        let bytes: [UInt8] = [0x1B, 0x70, 0, 25, 250, 0x1D, 0x28, 0x6B, 4, 0, 49, 80, 48, 0x5A, 0x10, 0x04, 4]
        for split in 0...bytes.count {
            var decoder = EscPosDecoder()
            let events = decoder.feed(bytes[..<split]) + decoder.feed(bytes[split...]) + decoder.finish()
            #expect(events == [.drawerKick(pin: .pin2, onTime: 25, offTime: 250), .qrCode(.store([0x5A])), .statusRequest(4)])
        }
    }

    @Test func truncatedInputIsReportedAtTheEnd() {
        #expect(decode([0x41, 0x1D, 0x28, 0x6B, 9, 0, 49]) == [.text("A"), .truncated([0x1D, 0x28, 0x6B, 9, 0, 49])])
        #expect(decode([0x1B]) == [.truncated([0x1B])])
    }
}
