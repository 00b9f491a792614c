import MPOSCore
import ReaderLink

extension CardholderSignature {
    /// The dots the pen covered, row by row (`true` inked): each stroke's segments drawn two
    /// dots wide, so a thin line stays visible once printed.
    public func inkedDots() -> [Bool] {
        var dots = [Bool](repeating: false, count: width * height)
        func ink(_ x: Int, _ y: Int) {
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (px, py) = (x + dx, y + dy)
                if px < width, py < height { dots[py * width + px] = true }
            }
        }
        for stroke in strokes {
            guard var previous = stroke.first else { continue }
            ink(previous.x, previous.y)
            for point in stroke.dropFirst() {
                Self.line(from: previous, to: point, plot: ink)
                previous = point
            }
        }
        return dots
    }

    /// The signature as an 8-bit grayscale PNG: black ink on white.
    public func png() -> [UInt8] {
        PNGEncoder.grayscale(width: width, height: height, pixels: inkedDots().map { $0 ? 0 : 255 })
    }

    /// The signature as a 1-bit bitmap for the printer's raster command.
    ///
    /// - Throws: what ``MonochromeBitmap`` throws for a size it cannot hold (never for a pad
    ///   this type accepted).
    public func bitmap() throws(MPOSError) -> MonochromeBitmap {
        let dots = inkedDots()
        return try MonochromeBitmap(width: width, height: height) { x, y in dots[y * width + x] }
    }

    /// Bresenham's line from `a` to `b`, both ends included.
    static func line(from a: Point, to b: Point, plot: (Int, Int) -> Void) {
        let dx = abs(b.x - a.x)
        let dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1
        let sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        var (x, y) = (a.x, a.y)
        while true {
            plot(x, y)
            if x == b.x, y == b.y { return }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += sx
            }
            if doubled <= dx {
                error += dx
                y += sy
            }
        }
    }
}
