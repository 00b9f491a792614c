import EMV

/// The card data the reader encrypts for the host: what the sandbox reader seals with
/// `CardDataEnvelope` under its DUKPT key and the sandbox gateway opens.
///
/// Format: BER-TLV, these primitive objects in this order, the optional ones only when present:
///
/// | Tag  | Value                                                  |
/// |------|--------------------------------------------------------|
/// | 5A   | PAN, BCD, padded with `F`                              |
/// | 5F24 | Expiration date `YYMMDD` (last day of the expiry month) |
/// | 5F34 | PAN Sequence Number, one BCD byte (optional)           |
/// | 57   | Track 2 Equivalent Data (optional)                     |
/// | 5F20 | Cardholder name, ASCII (optional)                      |
///
/// It prints masked; the digits leave it only through ``encoded()``.
public struct CardDataPlaintext: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The card number.
    public let pan: PAN
    /// Expiry `YYMM`.
    public let expiry: String
    /// The PAN Sequence Number as one BCD byte (`0x01`), or `nil`.
    public let panSequenceNumber: UInt8?
    /// Track 2 Equivalent Data (tag 57 format), or `nil`.
    public let track2Equivalent: [UInt8]?
    /// Cardholder name, or `nil`.
    public let cardholderName: String?

    /// Creates plaintext card data.
    public init(
        pan: PAN, expiry: String, panSequenceNumber: UInt8? = nil, track2Equivalent: [UInt8]? = nil,
        cardholderName: String? = nil
    ) {
        self.pan = pan
        self.expiry = expiry
        self.panSequenceNumber = panSequenceNumber
        self.track2Equivalent = track2Equivalent
        self.cardholderName = cardholderName
    }

    /// The card data of a sandbox card, with or without its Track 2 equivalent.
    public init(card: SandboxCard, includeTrack2: Bool = true) {
        self.init(
            pan: card.pan, expiry: card.expiry, panSequenceNumber: card.panSequenceNumberBCD,
            track2Equivalent: includeTrack2 ? card.track2Equivalent : nil, cardholderName: card.cardholderName
        )
    }

    /// The BER-TLV encoding described above.
    public func encoded() -> [UInt8] {
        var objects = [
            TLV(0x5A, value: BCDText.pack(pan.unmaskedDigits)),
            TLV(0x5F24, value: BCDText.pack(expiry + CardDataPlaintext.lastDay(ofExpiry: expiry))),
        ]
        if let panSequenceNumber { objects.append(TLV(0x5F34, value: [panSequenceNumber])) }
        if let track2Equivalent { objects.append(TLV(0x57, value: track2Equivalent)) }
        if let cardholderName { objects.append(TLV(0x5F20, value: Array(cardholderName.utf8))) }
        // The tags above are constants and well-formed, so encoding cannot fail.
        return (try? TLV.encode(objects)) ?? []
    }

    /// Decodes ``encoded()`` output.
    /// - Throws: ``SandboxIssuerError/Kind/malformedCardData`` for bad TLV, a missing or
    ///   malformed 5A or 5F24, or a malformed 5F34.
    public init(decoding bytes: [UInt8]) throws(SandboxIssuerError) {
        let tree: TLVTree
        do {
            tree = try TLVTree(decoding: bytes)
        } catch {
            throw SandboxIssuerError(.malformedCardData, "card data is not BER-TLV (\(error.kind))")
        }
        guard let panBytes = tree[0x5A], let pan = PAN(bcd: panBytes) else {
            throw SandboxIssuerError(.malformedCardData, "card data has no valid PAN (5A)")
        }
        guard let date = tree[0x5F24], date.count == 3,
            date.allSatisfy({ $0 >> 4 <= 9 && $0 & 0x0F <= 9 })
        else {
            throw SandboxIssuerError(
                .malformedCardData, "card data has no valid expiry (5F24)", maskedPAN: pan.masked)
        }
        var panSequenceNumber: UInt8?
        if let psn = tree[0x5F34] {
            guard psn.count == 1, let byte = psn.first, byte >> 4 <= 9, byte & 0x0F <= 9 else {
                throw SandboxIssuerError(.malformedCardData, "5F34 is not one BCD byte", maskedPAN: pan.masked)
            }
            panSequenceNumber = byte
        }
        self.pan = pan
        self.expiry = Hex.encode(date.prefix(2))
        self.panSequenceNumber = panSequenceNumber
        self.track2Equivalent = tree[0x57].map(Array.init)
        self.cardholderName = tree[0x5F20].map { String(decoding: $0, as: UTF8.self) }
    }

    /// Masked PAN and expiry.
    public var description: String { "CardDataPlaintext(\(pan.masked), expires \(expiry))" }
    /// Same as ``description``.
    public var debugDescription: String { description }

    /// The last day of a `YYMM` month as two digits (`"31"`, `"30"`, `"29"`, `"28"`).
    static func lastDay(ofExpiry yymm: String) -> String {
        let digits = Array(yymm.utf8).map { Int($0) - 48 }
        guard digits.count == 4 else { return "31" }
        let year = 2000 + digits[0] * 10 + digits[1]
        switch digits[2] * 10 + digits[3] {
        case 4, 6, 9, 11: return "30"
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? "29" : "28"
        default: return "31"
        }
    }
}
