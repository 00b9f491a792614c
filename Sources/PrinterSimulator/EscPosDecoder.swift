/// A streaming decoder of ESC/POS bytes into ``EscPosEvent``s.
///
/// Bytes may arrive in pieces of any size: a command split across two ``feed(_:)`` calls is
/// decoded once it is complete. The decoder never traps on any input. Memory stays bounded:
/// an incomplete command waits in a buffer no larger than the biggest command it will store
/// (`GS ( k` is at most 65,538 bytes; a raster image at most ``rasterByteLimit``); anything
/// that declares a larger payload is reported and its payload skipped as it streams past.
///
/// ```swift
/// var decoder = EscPosDecoder()
/// let events = decoder.feed([0x1B, 0x40, 0x48, 0x69, 0x0A]) // [.initialize, .text("Hi"), .lineFeed]
/// ```
public struct EscPosDecoder: Sendable {
    /// The largest raster image (`GS v 0`) data kept, in bytes; bigger images are skipped.
    public let rasterByteLimit: Int
    /// The code page used to decode text; follows `ESC t` (and Datecs' `ESC u`) and resets on `ESC @`.
    public private(set) var codePage: PrinterCodePage = .pc437

    private var pending: [UInt8] = []
    private var skipRemaining = 0

    /// A decoder; `rasterByteLimit` defaults to 1 MiB, enough for an 80 mm page 14,000 dots tall.
    public init(rasterByteLimit: Int = 1 << 20) {
        self.rasterByteLimit = max(0, rasterByteLimit)
    }

    /// Decodes the next bytes of the stream; returns the events completed by them.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [EscPosEvent] {
        var input = Array(bytes)[...]
        if skipRemaining > 0 {
            let dropped = min(skipRemaining, input.count)
            skipRemaining -= dropped
            input = input.dropFirst(dropped)
        }
        pending.append(contentsOf: input)
        var events: [EscPosEvent] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if Self.isPrintable(byte) {
                var end = index + 1
                while end < pending.count, Self.isPrintable(pending[end]) { end += 1 }
                events.append(.text(codePage.decode(pending[index..<end])))
                index = end
                continue
            }
            let command = CommandReader(bytes: pending, start: index, rasterByteLimit: rasterByteLimit)
            guard let step = command.read() else { break }
            if let event = step.event {
                apply(event)
                events.append(event)
            }
            index += step.consumed
            if step.skip > 0 {
                let available = min(step.skip, pending.count - index)
                index += available
                skipRemaining = step.skip - available
            }
        }
        pending.removeFirst(min(index, pending.count))
        return events
    }

    /// Ends the stream: reports bytes of an incomplete command, if any, and clears the buffer.
    public mutating func finish() -> [EscPosEvent] {
        defer {
            pending = []
            skipRemaining = 0
        }
        return pending.isEmpty ? [] : [.truncated(pending)]
    }

    /// The number of bytes waiting for the rest of a command.
    public var bufferedByteCount: Int { pending.count }

    private mutating func apply(_ event: EscPosEvent) {
        switch event {
        case .initialize: codePage = .pc437
        case .selectCodePage(let n): codePage = PrinterCodePage(escPosNumber: n) ?? .pc437
        case .selectDatecsCodeTable(let n): codePage = PrinterCodePage(datecsNumber: n) ?? .pc437
        default: break
        }
    }

    static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x7F }
}

/// What one command decoded to: the event (nil for bytes dropped silently), the bytes it used,
/// and how many payload bytes after them to skip unread.
struct CommandStep {
    var event: EscPosEvent?
    var consumed: Int
    var skip = 0
}
