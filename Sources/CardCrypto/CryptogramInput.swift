import EMV

/// The data an application cryptogram (ARQC, TC or AAC) is computed over: the values of the
/// data elements recommended by EMV Book 2, 8.1.1 (Table 26), concatenated in this order with no
/// tags or lengths:
///
/// | Tag  | Bytes | Element                                   |
/// |------|-------|-------------------------------------------|
/// | 9F02 | 6     | Amount, Authorised                        |
/// | 9F03 | 6     | Amount, Other                             |
/// | 9F1A | 2     | Terminal Country Code                     |
/// | 95   | 5     | Terminal Verification Results             |
/// | 5F2A | 2     | Transaction Currency Code                 |
/// | 9A   | 3     | Transaction Date                          |
/// | 9C   | 1     | Transaction Type                          |
/// | 9F37 | 4     | Unpredictable Number                      |
/// | 82   | 2     | Application Interchange Profile           |
/// | 9F36 | 2     | Application Transaction Counter           |
/// | 9F10 | 1–32  | Issuer Application Data, all of its bytes |
///
/// The issuer must rebuild exactly the bytes the card used, so both sides build through this
/// type. Card schemes put only the CVR part of 9F10 in; this module takes the whole IAD, which
/// the sandbox card and issuer agree on.
public struct CryptogramInput: Sendable, Hashable {
    /// The elements in order, with their fixed lengths (`nil`: 1–32 bytes).
    public static let layout: [(tag: EMVTag, length: Int?)] = [
        (0x9F02, 6), (0x9F03, 6), (0x9F1A, 2), (0x95, 5), (0x5F2A, 2), (0x9A, 3),
        (0x9C, 1), (0x9F37, 4), (0x82, 2), (0x9F36, 2), (0x9F10, nil),
    ]

    /// The concatenated values, the MAC input.
    public let bytes: [UInt8]
    /// The Application Transaction Counter (9F36), which selects the session key.
    public let atc: UInt16

    /// Builds the input from values by tag.
    /// - Throws: ``CardCryptoError/Kind/missingDataElement`` naming the first missing tag, or
    ///   ``CardCryptoError/Kind/invalidDataElementLength`` naming a tag of the wrong length.
    public init(values: [EMVTag: [UInt8]]) throws(CardCryptoError) {
        try self.init { values[$0].map { ArraySlice($0) } }
    }

    /// Builds the input from decoded TLV data, taking the first occurrence of each tag at any
    /// depth.
    /// - Throws: as ``init(values:)``.
    public init(tree: TLVTree) throws(CardCryptoError) {
        try self.init { tree[$0] }
    }

    private init(lookup: (EMVTag) -> ArraySlice<UInt8>?) throws(CardCryptoError) {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        var atc: UInt16 = 0
        for (tag, length) in CryptogramInput.layout {
            guard let value = lookup(tag) else {
                throw CardCryptoError(
                    .missingDataElement, "tag \(tag.hex) is missing from the cryptogram input")
            }
            if let length {
                guard value.count == length else {
                    throw CardCryptoError(
                        .invalidDataElementLength,
                        "tag \(tag.hex) must be \(length) bytes, got \(value.count)")
                }
            } else {
                guard (1...32).contains(value.count) else {
                    throw CardCryptoError(
                        .invalidDataElementLength, "tag \(tag.hex) must be 1 to 32 bytes, got \(value.count)")
                }
            }
            if tag == 0x9F36 {
                atc = UInt16(value[value.startIndex]) << 8 | UInt16(value[value.startIndex + 1])
            }
            out += value
        }
        self.bytes = out
        self.atc = atc
    }

    /// Compares the bytes.
    public static func == (lhs: CryptogramInput, rhs: CryptogramInput) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
