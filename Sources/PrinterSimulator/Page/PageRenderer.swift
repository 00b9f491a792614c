import PrinterCodePages

/// Draws a ``PrintJob`` as the paper would come out of the printer, at 8 dots per mm.
///
/// Text uses font A's 12×24 cell (the built-in 5×7 glyphs drawn at twice their size, bold
/// drawn twice one dot apart) scaled by the `GS !` multipliers, with 6 dots between lines; QR
/// codes are encoded and drawn module by module at their module size, centred, with four
/// light modules above and below; raster images are drawn dot for dot where the alignment puts them.
public enum PageRenderer {
    /// Font A's cell width in dots.
    static let cellWidth = 12
    /// Font A's cell height in dots; lines advance by this plus ``lineGap``.
    static let cellHeight = 24
    static let lineGap = 6

    /// The image of a job on the model's paper, and notes on what could not be drawn.
    public static func render(_ job: PrintJob, model: PrinterModel) -> (image: PageImage, notes: [String]) {
        var image = PageImage(width: model.dotsPerLine)
        var notes: [String] = []
        for element in job.elements {
            switch element {
            case .line(let line): draw(line, on: &image)
            case .qrCode(let data, let moduleSize, let level):
                do {
                    let symbol = try QRCode(encoding: data, errorCorrection: QRErrorCorrection(escPosLevel: level) ?? .medium)
                    draw(symbol, moduleSize: moduleSize, on: &image)
                } catch {
                    notes.append("QR code of \(error.byteCount) bytes not drawn: more than \(error.capacity) bytes")
                }
            case .raster(let raster, let justification): draw(raster, justification, on: &image)
            }
        }
        return (image, notes)
    }

    private static func draw(_ line: PrintedLine, on image: inout PageImage) {
        let top = image.height
        let width = max(1, line.width), height = max(1, line.height)
        image.grow(to: top + (cellHeight + lineGap) * height)
        for (index, character) in line.text.enumerated() where character != " " {
            let left = index * cellWidth * width
            for (column, bits) in Font5x7.columns(for: character).enumerated() {
                for row in 0..<7 where bits >> row & 1 == 1 {
                    let x = left + (1 + column * 2) * width, y = top + (5 + row * 2) * height
                    for dy in 0..<(2 * height) {
                        for dx in 0..<(2 * width + (line.bold ? 1 : 0)) { image.set(x + dx, y + dy) }
                    }
                }
            }
        }
    }

    private static func draw(_ symbol: QRCode, moduleSize: Int, on image: inout PageImage) {
        let scale = max(1, moduleSize)
        let side = symbol.size * scale
        let left = max(0, (image.width - side) / 2)
        let top = image.height + 4 * scale
        image.grow(to: top + side + 4 * scale)
        for row in 0..<symbol.size {
            for column in 0..<symbol.size where symbol.isDark(row: row, column: column) {
                for dy in 0..<scale {
                    for dx in 0..<scale { image.set(left + column * scale + dx, top + row * scale + dy) }
                }
            }
        }
    }

    private static func draw(_ raster: RasterImage, _ justification: Justification, on image: inout PageImage) {
        let xScale = raster.mode & 1 == 1 ? 2 : 1
        let yScale = raster.mode & 2 == 2 ? 2 : 1
        let free = max(0, image.width - raster.widthBytes * 8 * xScale)
        let left = justification == .left ? 0 : justification == .center ? free / 2 : free
        let top = image.height
        image.grow(to: top + raster.height * yScale)
        for y in 0..<raster.height {
            for x in 0..<(raster.widthBytes * 8) where raster.data[y * raster.widthBytes + x / 8] & (0x80 >> (x % 8)) != 0 {
                for dy in 0..<yScale {
                    for dx in 0..<xScale { image.set(left + x * xScale + dx, top + y * yScale + dy) }
                }
            }
        }
    }
}
