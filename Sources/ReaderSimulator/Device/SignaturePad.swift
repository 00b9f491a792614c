import ReaderLink

/// The simulated reader's signature pad: what the cardholder draws when a transaction asks
/// for a signature.
public enum SignaturePad {
    /// A 240 × 80 dot signature of three strokes, the same every time so that receipts and
    /// images compare in tests.
    public static let sample: CardholderSignature? = try? CardholderSignature(
        width: 240, height: 80,
        strokes: [
            [.init(x: 12, y: 60), .init(x: 30, y: 14), .init(x: 44, y: 62), .init(x: 58, y: 20), .init(x: 70, y: 58)],
            [.init(x: 86, y: 40), .init(x: 120, y: 24), .init(x: 150, y: 52), .init(x: 184, y: 18), .init(x: 226, y: 44)],
            [.init(x: 20, y: 72), .init(x: 220, y: 70)],
        ])
}
