import Foundation
import MPOSCore
import PrinterCodePages
import Testing

@testable import MPOSKit

/// A receipt as a 1-bit image for printers that take only images: it reads back as the very
/// text rendering, at the printer's width, and saves as a PBM file.
@Suite(.timeLimit(.minutes(1)))
struct ReceiptImageTests {
    static let receipt = ReceiptRenderingTests.contactPIN()

    /// Each glyph of the font and the first printable ASCII character drawn with it.
    static let glyphs: [[UInt8]: Character] = {
        var glyphs: [[UInt8]: Character] = [:]
        for ascii in (UInt8(0x20)...UInt8(0x7E)).reversed() {
            glyphs[Font5x7.columns(for: Character(UnicodeScalar(ascii)))] = Character(UnicodeScalar(ascii))
        }
        return glyphs
    }()

    /// The text an image shows, read cell by cell against the font; characters that share a
    /// glyph read as the first of them.
    static func read(_ image: MonochromeBitmap, scale: Int) -> [String] {
        let cellWidth = 6 * scale, cellHeight = 8 * scale
        return (0..<image.height / cellHeight).map { line in
            let text = (0..<image.width / cellWidth).map { column -> Character in
                let bits = (0..<5).map { dotColumn -> UInt8 in
                    (0..<7).reduce(UInt8(0)) { byte, dotRow in
                        let black = image.isBlack(
                            x: column * cellWidth + dotColumn * scale, y: line * cellHeight + dotRow * scale)
                        return black ? byte | 1 << dotRow : byte
                    }
                }
                return Self.glyphs[bits] ?? "?"
            }
            return String(String(text).reversed().drop { $0 == " " }.reversed())
        }
    }

    static func canonical(_ text: String) -> [String] {
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let mapped = line.map { Self.glyphs[Font5x7.columns(for: $0)] ?? "?" }
            return String(String(mapped).reversed().drop { $0 == " " }.reversed())
        }
    }

    @Test(arguments: [ReceiptCopy.customer, .merchant], [1, 2, 3])
    func theImageReadsBackAsTheTextRendering(_ copy: ReceiptCopy, scale: Int) throws {
        let image = try Self.receipt.image(copy, scale: scale)
        let text = Self.receipt.text(copy)
        #expect(Self.read(image, scale: scale) == Self.canonical(text))
        #expect(
            image.height == text.split(separator: "\n", omittingEmptySubsequences: false).count * 8 * scale)
    }

    @Test func atTheDefaultsItIsTheWidthOfA58mmPrinter() throws {
        #expect(try Self.receipt.image(.customer).width == 384)
    }

    @Test func itSavesAsABinaryPBM() throws {
        let image = try Self.receipt.image(.merchant)
        let pbm = image.pbm
        let header = Data("P4\n384 \(image.height)\n".utf8)
        #expect(pbm.prefix(header.count) == header)
        #expect(pbm.count == header.count + image.bytesPerRow * image.height)
        #expect(Array(pbm.dropFirst(header.count)) == image.bytes)
    }

    @Test(arguments: [0, 9, -1])
    func aScaleOutsideOneToEightIsRefused(_ scale: Int) {
        #expect(throws: MPOSError.invalidArgument) { try Self.receipt.image(.customer, scale: scale) }
    }
}
