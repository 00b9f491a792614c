/// Reads one non-text command at `start`; `read()` returns nil when more bytes are needed.
struct CommandReader {
    let bytes: [UInt8]
    let start: Int
    let rasterByteLimit: Int

    private static let esc: UInt8 = 0x1B, gs: UInt8 = 0x1D, dle: UInt8 = 0x10, fs: UInt8 = 0x1C

    private var available: Int { bytes.count - start }

    private func at(_ offset: Int) -> UInt8? {
        offset < available ? bytes[start + offset] : nil
    }

    private func slice(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[(start + range.lowerBound)..<(start + range.upperBound)])
    }

    /// Skips a known command of `length` bytes, once all of them are here.
    private func skipKnown(_ length: Int) -> CommandStep? {
        available >= length ? CommandStep(event: .skipped(slice(0..<length)), consumed: length) : nil
    }

    func read() -> CommandStep? {
        switch bytes[start] {
        case 0x0A: return CommandStep(event: .lineFeed, consumed: 1)
        // Carriage return only returns the head, which the line feed that follows already does.
        case 0x0D: return CommandStep(event: nil, consumed: 1)
        case Self.esc: return readEsc()
        case Self.gs: return readGs()
        case Self.dle: return readDle()
        case Self.fs: return readFs()
        default: return CommandStep(event: .skipped([bytes[start]]), consumed: 1)
        }
    }

    private func readEsc() -> CommandStep? {
        guard let function = at(1) else { return nil }
        switch function {
        case 0x40: return CommandStep(event: .initialize, consumed: 2)
        case UInt8(ascii: "t"):
            guard let n = at(2) else { return nil }
            return CommandStep(event: .selectCodePage(n), consumed: 3)
        case UInt8(ascii: "u"):
            guard let n = at(2) else { return nil }
            return CommandStep(event: .selectDatecsCodeTable(n), consumed: 3)
        case UInt8(ascii: "a"):
            guard let n = at(2) else { return nil }
            guard let justification = Justification(rawValue: n >= 48 ? n - 48 : n) else { return skipKnown(3) }
            return CommandStep(event: .justification(justification), consumed: 3)
        case UInt8(ascii: "E"):
            guard let n = at(2) else { return nil }
            return CommandStep(event: .emphasis(n & 1 == 1), consumed: 3)
        case UInt8(ascii: "d"):
            guard let n = at(2) else { return nil }
            return CommandStep(event: .feedLines(Int(n)), consumed: 3)
        case UInt8(ascii: "p"):
            guard available >= 5, let m = at(2), let on = at(3), let off = at(4) else { return nil }
            switch m {
            case 0, 48: return CommandStep(event: .drawerKick(pin: .pin2, onTime: on, offTime: off), consumed: 5)
            case 1, 49: return CommandStep(event: .drawerKick(pin: .pin5, onTime: on, offTime: off), consumed: 5)
            default: return skipKnown(5)
            }
        case UInt8(ascii: "*"):
            // Bit image: m nL nH, then nL + nH × 256 columns of 1 (8-dot) or 3 (24-dot) bytes.
            guard let m = at(2), let nL = at(3), let nH = at(4) else { return nil }
            let columns = Int(nL) + Int(nH) * 256
            let length = columns * (m == 32 || m == 33 ? 3 : 1)
            return CommandStep(event: .skipped(slice(0..<5)), consumed: 5, skip: length)
        case UInt8(ascii: "D"):
            return skipTerminated(from: 2, limit: 33)
        default:
            return skipKnown(2 + (Self.escParameterCounts[function] ?? 0))
        }
    }

    private func readGs() -> CommandStep? {
        guard let function = at(1) else { return nil }
        switch function {
        case UInt8(ascii: "!"):
            guard let n = at(2) else { return nil }
            return CommandStep(event: .characterSize(width: Int(n >> 4 & 7) + 1, height: Int(n & 7) + 1), consumed: 3)
        case UInt8(ascii: "V"):
            return readCut()
        case UInt8(ascii: "("):
            return readExtended()
        case UInt8(ascii: "v"):
            return readRaster()
        case UInt8(ascii: "k"):
            // Barcode: m 0–6 is NUL-terminated data, m 65 and above gives a length byte.
            guard let m = at(2) else { return nil }
            if m <= 6 { return skipTerminated(from: 3, limit: 256) }
            guard let n = at(3) else { return nil }
            return skipKnown(4 + Int(n))
        case UInt8(ascii: "8"):
            // GS 8 L p1 p2 p3 p4: a 32-bit parameter length, too large to hold; streamed past.
            guard available >= 7 else { return nil }
            let length = (0..<4).reduce(0) { $0 | Int(bytes[start + 3 + $1]) << (8 * $1) }
            return CommandStep(event: .skipped(slice(0..<7)), consumed: 7, skip: length)
        default:
            return skipKnown(2 + (Self.gsParameterCounts[function] ?? 0))
        }
    }

    private func readCut() -> CommandStep? {
        guard let m = at(2) else { return nil }
        switch m {
        case 0, 48: return CommandStep(event: .cut(Cut(partial: false, feed: nil)), consumed: 3)
        case 1, 49: return CommandStep(event: .cut(Cut(partial: true, feed: nil)), consumed: 3)
        case 65, 66, 97, 98, 103, 104:
            // Feed-and-cut (65/66), preset cut position (97/98), cut then feed back (103/104).
            guard let n = at(3) else { return nil }
            return CommandStep(event: .cut(Cut(partial: m % 2 == 0, feed: Int(n))), consumed: 4)
        default: return skipKnown(3)
        }
    }

    /// `GS ( X pL pH …`: every such command carries its parameter length.
    private func readExtended() -> CommandStep? {
        guard let letter = at(2), let pL = at(3), let pH = at(4) else { return nil }
        let length = Int(pL) + Int(pH) * 256
        guard available >= 5 + length else { return nil }
        let parameters = slice(5..<(5 + length))
        let event: EscPosEvent
        if letter == UInt8(ascii: "k"), parameters.count >= 2 {
            let cn = parameters[0], fn = parameters[1]
            event = cn == 49 ? .qrCode(Self.qrCommand(fn, Array(parameters.dropFirst(2)))) : .otherSymbol(cn: cn, function: fn)
        } else {
            event = .skipped(slice(0..<(5 + length)))
        }
        return CommandStep(event: event, consumed: 5 + length)
    }

    private static func qrCommand(_ fn: UInt8, _ rest: [UInt8]) -> QRCommand {
        switch fn {
        case 65 where rest.count >= 1: .selectModel(rest[0])
        case 67 where rest.count == 1: .moduleSize(rest[0])
        case 69 where rest.count == 1: .errorCorrection(rest[0])
        case 80 where rest.count >= 1: .store(Array(rest.dropFirst()))
        case 81: .print
        default: .other(function: fn, parameters: rest)
        }
    }

    private func readRaster() -> CommandStep? {
        guard let zero = at(2) else { return nil }
        guard zero == 0x30 else { return skipKnown(3) }
        guard available >= 8 else { return nil }
        let mode = bytes[start + 3]
        let widthBytes = Int(bytes[start + 4]) + Int(bytes[start + 5]) * 256
        let height = Int(bytes[start + 6]) + Int(bytes[start + 7]) * 256
        let length = widthBytes * height
        if length > rasterByteLimit {
            return CommandStep(event: .rasterTooLarge(widthBytes: widthBytes, height: height), consumed: 8, skip: length)
        }
        guard available >= 8 + length else { return nil }
        let image = RasterImage(mode: mode, widthBytes: widthBytes, height: height, data: slice(8..<(8 + length)))
        return CommandStep(event: .rasterImage(image), consumed: 8 + length)
    }

    private func readDle() -> CommandStep? {
        guard let function = at(1) else { return nil }
        switch function {
        case 0x04:
            guard let n = at(2) else { return nil }
            // n 7 and 8 (extended status) carry one more byte and are not answered here.
            if n == 7 || n == 8 { return skipKnown(4) }
            return CommandStep(event: .statusRequest(n), consumed: 3)
        case 0x05: return skipKnown(3)
        case 0x14: return skipKnown(5)
        default: return CommandStep(event: .skipped(slice(0..<2)), consumed: 2)
        }
    }

    private func readFs() -> CommandStep? {
        guard let function = at(1) else { return nil }
        return skipKnown(2 + (Self.fsParameterCounts[function] ?? 0))
    }

    /// Skips a command whose parameters end with NUL, giving up after `limit` bytes (the
    /// introducer alone is then skipped, as a printer treats a runaway list).
    private func skipTerminated(from offset: Int, limit: Int) -> CommandStep? {
        var index = offset
        while index < min(available, offset + limit) {
            if bytes[start + index] == 0 { return skipKnown(index + 1) }
            index += 1
        }
        if available >= offset + limit { return CommandStep(event: .skipped(slice(0..<offset)), consumed: offset) }
        return nil
    }

    // Parameter bytes after `ESC x`, `GS x` and `FS x` for the fixed-length commands the
    // emulator does not act on; a function byte missing here has none.
    private static let escParameterCounts: [UInt8: Int] = [
        0x20: 1, 0x21: 1, 0x24: 2, 0x25: 1, 0x2D: 1, 0x33: 1, 0x3D: 1, 0x3F: 1, 0x47: 1, 0x4A: 1,
        0x4D: 1, 0x52: 1, 0x54: 1, 0x55: 1, 0x56: 1, 0x57: 8, 0x5C: 2, 0x63: 2, 0x65: 1, 0x72: 1,
        0x74: 1, 0x76: 0, 0x7B: 1,
    ]
    private static let gsParameterCounts: [UInt8: Int] = [
        0x24: 2, 0x2F: 1, 0x42: 1, 0x48: 1, 0x49: 1, 0x4C: 2, 0x50: 2, 0x54: 1, 0x57: 2, 0x5C: 2,
        0x5E: 3, 0x61: 1, 0x62: 1, 0x66: 1, 0x68: 1, 0x72: 1, 0x77: 1,
    ]
    private static let fsParameterCounts: [UInt8: Int] = [0x21: 1, 0x2D: 1, 0x43: 1, 0x53: 2, 0x57: 1, 0x70: 2]
}
