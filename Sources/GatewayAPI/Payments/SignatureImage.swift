import Foundation

/// The cardholder's signature of a transaction as a PNG image (Wirecard's signature image):
/// uploaded once the merchant accepted it, returned with the transaction's lookup.
public struct SignatureImage: Codable, Sendable, Hashable {
    /// The PNG bytes (base64 in JSON).
    public var png: Data

    /// The eight bytes every PNG starts with; the gateway refuses anything else.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Creates an image from PNG bytes.
    public init(png: Data) { self.png = png }

    /// Whether ``png`` starts like a PNG.
    public var looksLikePNG: Bool { png.starts(with: Self.pngSignature) }
}
