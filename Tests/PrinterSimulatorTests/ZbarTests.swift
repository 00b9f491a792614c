import Foundation
import MPOSTestSupport
@testable import PrinterSimulator
import Testing

/// The QR codes in the page image decode with zbar, a decoder written elsewhere.
@Suite(.timeLimit(.minutes(2)), .enabled(if: Zbar.path != nil, "zbarimg (zbar-tools) is not installed"))
struct ZbarTests {

    private func decodeWithZbar(_ image: PageImage) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("escpos-\(UUID().uuidString).pbm")
        try Data(image.pbm).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Zbar.decodeQR(file)
    }

    private func job(qr data: String, moduleSize: UInt8, level: UInt8) -> [UInt8] {
        let payload = Array(data.utf8)
        let length = payload.count + 3
        var bytes: [UInt8] = [0x1B, 0x40, 0x1B, 0x61, 1] + Array("RECEIPT\n".utf8)
        bytes += [0x1D, 0x28, 0x6B, 3, 0, 49, 67, moduleSize, 0x1D, 0x28, 0x6B, 3, 0, 49, 69, level]
        bytes += [0x1D, 0x28, 0x6B, UInt8(length & 0xFF), UInt8(length >> 8), 49, 80, 48] + payload
        bytes += [0x1D, 0x28, 0x6B, 3, 0, 49, 81, 48, 0x1D, 0x56, 66, 0]
        return bytes
    }

    @Test(arguments: [
        ("txn_01J9ZK3M4Q8R2S5T6V7W8X9Y0Z", UInt8(49)),
        ("A", UInt8(48)),
        (String(repeating: "0123456789abcdef", count: 6), UInt8(50)),
        (String(repeating: "payment receipt ", count: 13), UInt8(49)),
        (String(repeating: "Z", count: 80), UInt8(51)),
    ])
    func qrCodeOnThePageDecodes(data: String, level: UInt8) throws {
        var emulator = PrinterEmulator(model: .paper80mm)
        let printed = try #require(emulator.receive(job(qr: data, moduleSize: 4, level: level)).jobs.first)
        let (image, notes) = PageRenderer.render(printed, model: .paper80mm)
        #expect(notes.isEmpty)
        #expect(try decodeWithZbar(image) == data)
    }

    @Test func everyMaskDecodes() throws {
        for mask in 0..<8 {
            let symbol = try QRCode(encoding: Array("mask test 12345".utf8), errorCorrection: .medium, mask: mask)
            var image = PageImage(width: 200, height: 200)
            for row in 0..<symbol.size {
                for column in 0..<symbol.size where symbol.isDark(row: row, column: column) {
                    for dy in 0..<4 { for dx in 0..<4 { image.set(40 + column * 4 + dx, 40 + row * 4 + dy) } }
                }
            }
            #expect(try decodeWithZbar(image) == "mask test 12345", "mask \(mask)")
        }
    }
}
