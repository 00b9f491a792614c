/// A receipt printer in software, without I/O: bytes in, status answers and print jobs out.
///
/// The emulator decodes ESC/POS with ``EscPosDecoder``, keeps the formatting that the
/// commands select, lays text out in the model's columns, answers `DLE EOT` from its
/// ``PrinterState`` and closes a ``PrintJob`` at every cut. While the paper is out or the cover
/// is open, nothing but status requests is executed; the job records where it stopped.
public struct PrinterEmulator: Sendable {
    /// What one call to ``receive(_:)`` produced.
    public struct Output: Sendable, Equatable {
        /// Bytes to send back to the host (status answers), in order.
        public var reply: [UInt8] = []
        /// Jobs completed by a cut.
        public var jobs: [PrintJob] = []
        /// Human-readable notes: drawer kicks, skipped commands, truncated input.
        public var log: [String] = []
    }

    /// Paper width and columns.
    public let model: PrinterModel
    /// Sensors and drawer; change them between calls to simulate a printer's condition.
    public var state: PrinterState

    private var decoder: EscPosDecoder
    private var job = PrintJob()
    private var lineText = ""
    private var lineStyle = PrintedLine(text: "")
    private var justification = Justification.left
    private var bold = false
    private var size = (width: 1, height: 1)
    private var qrData: [UInt8] = []
    private var qrModuleSize = 3
    private var qrLevel: UInt8 = 49

    /// An emulator for a model in a given state.
    public init(model: PrinterModel = .paper80mm, state: PrinterState = PrinterState(), rasterByteLimit: Int = 1 << 20) {
        self.model = model
        self.state = state
        self.decoder = EscPosDecoder(rasterByteLimit: rasterByteLimit)
    }

    /// Feeds bytes received from the host.
    public mutating func receive(_ bytes: some Collection<UInt8>) -> Output {
        var output = Output()
        for event in decoder.feed(bytes) { handle(event, into: &output) }
        return output
    }

    /// The host closed the connection: returns the unfinished job, if it printed anything.
    public mutating func endOfStream() -> Output {
        var output = Output()
        for event in decoder.finish() { handle(event, into: &output) }
        flushLine(force: false)
        if !job.elements.isEmpty || job.stop != nil { output.jobs.append(job) }
        job = PrintJob()
        return output
    }

    private mutating func handle(_ event: EscPosEvent, into output: inout Output) {
        if case .statusRequest(let n) = event {
            if let answer = state.statusByte(for: n) { output.reply.append(answer) }
            return
        }
        guard state.canPrint else {
            if job.stop == nil { job.stop = PrintStop(reason: state.stopReason ?? "offline", linesPrinted: job.lines.count) }
            if case .drawerKick(let pin, _, _) = event { output.log.append("drawer kick on pin \(pin.rawValue) ignored: printer offline") }
            return
        }
        switch event {
        case .text(let text):
            if lineText.isEmpty { lineStyle = PrintedLine(text: "", justification: justification, width: size.width, height: size.height, bold: bold) }
            lineText += text
        case .lineFeed: flushLine(force: true)
        case .feedLines(let n):
            if n > 0 || !lineText.isEmpty { flushLine(force: true) }
            for _ in 0..<max(0, n - 1) { flushLine(force: true) }
        case .initialize:
            lineText = ""
            justification = .left
            bold = false
            size = (1, 1)
        case .selectCodePage(let n):
            if PrinterCodePage(escPosNumber: n) == nil { output.log.append("code page \(n) not available, using PC437") }
        case .selectDatecsCodeTable(let n):
            if PrinterCodePage(datecsNumber: n) == nil { output.log.append("Datecs code table \(n) not available, using PC437") }
        case .justification(let value): justification = value
        case .emphasis(let on): bold = on
        case .characterSize(let width, let height): size = (width, height)
        case .cut:
            flushLine(force: false)
            job.cut = true
            output.jobs.append(job)
            job = PrintJob()
        case .drawerKick(let pin, let on, let off):
            state.drawerOpen = true
            output.log.append("drawer kick on pin \(pin.rawValue) (\(Int(on) * 2) ms on, \(Int(off) * 2) ms off)")
        case .qrCode(let command): handleQR(command)
        case .otherSymbol(let cn, let fn): output.log.append("symbol command cn \(cn) fn \(fn) accepted, not printed")
        case .rasterImage(let image):
            flushLine(force: false)
            job.elements.append(.raster(image, justification))
        case .rasterTooLarge(let widthBytes, let height):
            output.log.append("raster image \(widthBytes * 8)×\(height) dots over the size limit: skipped")
        case .skipped(let bytes): output.log.append("skipped command " + bytes.prefix(8).map(Self.hex).joined(separator: " "))
        case .truncated(let bytes): output.log.append("input ended inside a command (\(bytes.count) bytes)")
        case .statusRequest: break
        }
    }

    private mutating func handleQR(_ command: QRCommand) {
        switch command {
        case .store(let data): qrData = data
        case .moduleSize(let n): qrModuleSize = Int(max(1, min(n, 16)))
        case .errorCorrection(let level): qrLevel = level
        case .print:
            flushLine(force: false)
            if !qrData.isEmpty { job.elements.append(.qrCode(data: qrData, moduleSize: qrModuleSize, errorCorrection: qrLevel)) }
        case .selectModel, .other: break
        }
    }

    /// Prints the line buffer; an empty buffer prints a blank line only when `force` is set.
    private mutating func flushLine(force: Bool) {
        if lineText.isEmpty {
            guard force else { return }
            lineStyle = PrintedLine(text: "", justification: justification, width: size.width, height: size.height, bold: bold)
        }
        let columns = max(1, model.columns / max(1, lineStyle.width))
        var remaining = Array(lineText)
        lineText = ""
        repeat {
            let piece = String(remaining.prefix(columns))
            remaining.removeFirst(min(columns, remaining.count))
            var line = lineStyle
            let free = columns - piece.count
            let pad = switch lineStyle.justification {
            case .left: 0
            case .center: free / 2
            case .right: free
            }
            line.text = String(repeating: " ", count: pad) + piece
            job.elements.append(.line(line))
        } while !remaining.isEmpty
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
