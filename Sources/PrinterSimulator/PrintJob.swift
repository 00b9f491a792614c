/// One printed line of text and how it was printed.
public struct PrintedLine: Sendable, Equatable {
    /// The line as printed: alignment applied with leading spaces, in characters of its width.
    public var text: String
    /// The alignment in force when the line was printed.
    public var justification: Justification
    /// Character width multiplier (1–8).
    public var width: Int
    /// Character height multiplier (1–8).
    public var height: Int
    /// True when the line was printed emphasized.
    public var bold: Bool

    /// A line as printed.
    public init(text: String, justification: Justification = .left, width: Int = 1, height: Int = 1, bold: Bool = false) {
        self.text = text
        self.justification = justification
        self.width = width
        self.height = height
        self.bold = bold
    }
}

/// What went onto the paper, top to bottom.
public enum PageElement: Sendable, Equatable {
    /// A line of text.
    case line(PrintedLine)
    /// A QR code symbol: the stored data, the module size in dots and the level byte (48–51).
    case qrCode(data: [UInt8], moduleSize: Int, errorCorrection: UInt8)
    /// A raster image, placed by the alignment in force when it was printed.
    case raster(RasterImage, Justification)
}

/// Why a job stopped and how far it got.
public struct PrintStop: Sendable, Equatable {
    /// The printer's condition, e.g. "paper out" or "cover open".
    public var reason: String
    /// The number of text lines printed before the printer stopped.
    public var linesPrinted: Int

    /// A stop as recorded.
    public init(reason: String, linesPrinted: Int) {
        self.reason = reason
        self.linesPrinted = linesPrinted
    }
}

/// One print job: what the printer received between two cuts (or until the connection closed).
public struct PrintJob: Sendable, Equatable {
    /// The page, top to bottom.
    public var elements: [PageElement] = []
    /// Set when the printer could not print all of the job.
    public var stop: PrintStop?
    /// True when the job ended with a paper cut.
    public var cut: Bool = false

    /// An empty job.
    public init() {}

    /// The decoded text, one string per printed line.
    public var lines: [String] {
        elements.compactMap { if case .line(let line) = $0 { line.text } else { nil } }
    }

    /// The decoded text as a file: the lines, each ended by a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }
}
