/// The cardholder's signature as the reader's pad captured it: strokes of points on a
/// `width × height` pad, carried with ``ReaderMessage/signatureRequired(transactionID:signature:)``.
/// MPOSKit renders it to a PNG for the app and the gateway (Wirecard's signature image) and
/// to a bitmap for a receipt printer.
///
/// ```swift
/// let signature = try CardholderSignature(width: 200, height: 60, strokes: [[.init(x: 10, y: 40), .init(x: 90, y: 12)]])
/// ```
public struct CardholderSignature: Sendable, Hashable {
    /// A point on the pad; (0, 0) is the top left.
    public struct Point: Sendable, Hashable {
        /// Dots from the left edge.
        public var x: Int
        /// Dots from the top edge.
        public var y: Int

        /// Creates a point.
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// The pad's width in dots.
    public let width: Int
    /// The pad's height in dots.
    public let height: Int
    /// The pen's strokes, each a line through its points in order.
    public let strokes: [[Point]]

    /// The largest pad side accepted, which keeps an image within a receipt's raster.
    public static let maximumSide = 2_000

    /// A signature on a `width × height` pad.
    ///
    /// - Throws: ``ReaderLinkError/malformed(detail:)`` when a side is not
    ///   1...``maximumSide``, a point is off the pad, or there is no point at all.
    public init(width: Int, height: Int, strokes: [[Point]]) throws(ReaderLinkError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw .malformed(detail: "a signature pad of \(width)×\(height) dots is outside 1...\(Self.maximumSide) on a side")
        }
        guard strokes.contains(where: { !$0.isEmpty }) else {
            throw .malformed(detail: "the signature has no point")
        }
        for point in strokes.joined() where !(0..<width).contains(point.x) || !(0..<height).contains(point.y) {
            throw .malformed(detail: "the signature point (\(point.x), \(point.y)) is off its \(width)×\(height) pad")
        }
        self.width = width
        self.height = height
        self.strokes = strokes
    }
}
