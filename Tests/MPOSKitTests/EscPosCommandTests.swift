import MPOSCore
import Testing

@testable import MPOSKit

/// Each command's bytes, computed by hand from the ESC/POS reference.
@Suite(.timeLimit(.minutes(1))) struct EscPosCommandTests {
    func bytes(_ profile: PrinterProfile = .paper58mm, _ build: (inout EscPosEncoder) throws -> Void) rethrows
        -> [UInt8]
    {
        var job = EscPosEncoder(profile: profile)
        try build(&job)
        return job.bytes
    }

    @Test func textStyleAndFeedCommands() {
        #expect(bytes { $0.initialize() } == [0x1B, 0x40])
        #expect(bytes { $0.selectCodePage() } == [0x1B, 0x74, 0x13])
        #expect(bytes(.paper80mm) { $0.selectCodePage() } == [0x1B, 0x74, 0x13])
        #expect(bytes(.datecsDPP250) { $0.selectCodePage() } == [0x1B, 0x75, 0x01])
        #expect(bytes { $0.align(.left) } == [0x1B, 0x61, 0x00])
        #expect(bytes { $0.align(.center) } == [0x1B, 0x61, 0x01])
        #expect(bytes { $0.align(.right) } == [0x1B, 0x61, 0x02])
        #expect(bytes { $0.bold(true) } == [0x1B, 0x45, 0x01])
        #expect(bytes { $0.bold(false) } == [0x1B, 0x45, 0x00])
        #expect(bytes { $0.size(width: 2, height: 2) } == [0x1D, 0x21, 0x11])
        #expect(bytes { $0.size(width: 1, height: 2) } == [0x1D, 0x21, 0x01])
        #expect(bytes { $0.size(width: 2, height: 1) } == [0x1D, 0x21, 0x10])
        #expect(bytes { $0.size(width: 9, height: 0) } == [0x1D, 0x21, 0x70])
        #expect(bytes { $0.line("Ab 1") } == [0x41, 0x62, 0x20, 0x31, 0x0A])
        #expect(bytes { $0.feed(lines: 3) } == [0x1B, 0x64, 0x03])
    }

    @Test func cutOrFeedByProfile() {
        #expect(bytes { $0.cut() } == [0x1D, 0x56, 0x42, 0x00])
        #expect(bytes(.paper80mm) { $0.cut(feed: 5) } == [0x1D, 0x56, 0x42, 0x05])
        #expect(bytes(.datecsDPP250) { $0.cut() } == [0x1B, 0x64, 0x04])
        #expect(bytes { $0.partialCutWithoutFeed() } == [0x1D, 0x56, 0x01])
    }

    @Test func drawerKickAndStatusRequests() {
        #expect(bytes { $0.kickDrawer(.pin2) } == [0x1B, 0x70, 0x00, 0x19, 0xFA])
        #expect(bytes { $0.kickDrawer(.pin5, onTime: 50, offTime: 100) } == [0x1B, 0x70, 0x01, 0x32, 0x64])
        #expect(EscPosEncoder.drawerKick(.pin5) == [0x1B, 0x70, 0x01, 0x19, 0xFA])
        #expect(EscPosEncoder.statusRequest(.printer) == [0x10, 0x04, 0x01])
        #expect(EscPosEncoder.statusRequest(.offlineCause) == [0x10, 0x04, 0x02])
        #expect(EscPosEncoder.statusRequest(.errorCause) == [0x10, 0x04, 0x03])
        #expect(EscPosEncoder.statusRequest(.paperSensor) == [0x10, 0x04, 0x04])
    }

    @Test func aShortQRCodeIsTheFiveFunctionCalls() throws {
        let data = Array("txn_2337".utf8)
        let expected: [UInt8] =
            [0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00]  // 165: model 2
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x06]  // 167: 6-dot modules
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x31]  // 169: level M
            + [0x1D, 0x28, 0x6B, 0x0B, 0x00, 0x31, 0x50, 0x30] + data  // 180: 8 + 3 = 11
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30]  // 181: print
        #expect(try bytes { try $0.qrCode(data) } == expected)
    }

    @Test func longQRDataCarriesItsLengthInTwoBytes() throws {
        let data = [UInt8](repeating: 0x41, count: 300)
        let job = try bytes { try $0.qrCode(data, moduleSize: 3) }
        // 300 + 3 = 303 = 0x012F: pL 0x2F, pH 0x01.
        #expect(Array(job[25..<33]) == [0x1D, 0x28, 0x6B, 0x2F, 0x01, 0x31, 0x50, 0x30])
        #expect(Array(job[33..<333]) == data)
        #expect(job[24] == 0x31 && job.count == 9 + 8 + 8 + 8 + 300 + 8)
        #expect(Array(job[9..<17]) == [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x03])
        let largest = try bytes { try $0.qrCode([UInt8](repeating: 0x30, count: 7_089)) }
        #expect(Array(largest[28..<30]) == [0xB4, 0x1B])  // 7,092
    }

    @Test func qrDataOutsideTheLimitsIsRefused() {
        var job = EscPosEncoder(profile: .paper58mm)
        #expect(throws: MPOSError.self) { try job.qrCode([]) }
        #expect(throws: MPOSError.self) { try job.qrCode([UInt8](repeating: 1, count: 7_090)) }
        #expect(throws: MPOSError.self) { try job.qrCode([1], moduleSize: 17) }
        #expect(job.bytes.isEmpty)
    }

    @Test func rasterImageHeaderThenRows() throws {
        // 10 dots wide: 2 bytes a row; black at (0, 0) and (9, 1).
        let bitmap = try MonochromeBitmap(width: 10, height: 2) { x, y in (x, y) == (0, 0) || (x, y) == (9, 1)
        }
        #expect(bitmap.bytes == [0x80, 0x00, 0x00, 0x40])
        #expect(
            bytes { $0.rasterImage(bitmap) } == [
                0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0x80, 0x00, 0x00, 0x40,
            ])
        let tall = try MonochromeBitmap(
            width: 8, height: 300, packedRows: [UInt8](repeating: 0xFF, count: 300))
        #expect(
            Array(bytes { $0.rasterImage(tall) }.prefix(8)) == [
                0x1D, 0x76, 0x30, 0x00, 0x01, 0x00, 0x2C, 0x01,
            ])
        #expect(throws: MPOSError.self) { try MonochromeBitmap(width: 0, height: 1) { _, _ in true } }
        #expect(throws: MPOSError.self) { try MonochromeBitmap(width: 9, height: 1, packedRows: [0xFF]) }
        let copy = try MonochromeBitmap(width: 10, height: 2, packedRows: bitmap.bytes)
        #expect(copy == bitmap && copy.isBlack(x: 9, y: 1) && !copy.isBlack(x: 8, y: 1))
    }
}
