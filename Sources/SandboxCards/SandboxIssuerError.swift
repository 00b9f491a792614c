/// The one error type SandboxCards throws: why the sandbox issuer could not verify an
/// authorization request, or why card data could not be decoded.
///
/// A struct with a ``Kind`` so that kinds can be added without breaking a `switch`. Codes sit
/// in 6200...6299, beside CardCrypto's 6100 block. Messages and ``maskedPAN`` never contain a
/// full card number, track data, keys or plaintext.
public struct SandboxIssuerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with a stable numeric code.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable numeric code, 6200...6299.
        public let code: Int
        /// A short name for logs.
        public let name: String

        init(_ code: Int, _ name: String) {
            self.code = code
            self.name = name
        }

        /// 6201: the sealed card data did not open (wrong KSN or BDK, altered or truncated).
        public static let badCiphertext = Kind(6201, "badCiphertext")
        /// 6202: the KSN is not 12 bytes or not a usable DUKPT counter.
        public static let invalidKSN = Kind(6202, "invalidKSN")
        /// 6203: the decrypted card data is not the documented TLV plaintext.
        public static let malformedCardData = Kind(6203, "malformedCardData")
        /// 6204: the card number is not a sandbox card.
        public static let unknownCard = Kind(6204, "unknownCard")
        /// 6205: the clear EMV data disagrees with the encrypted card data (PSN, masked PAN).
        public static let cardDataMismatch = Kind(6205, "cardDataMismatch")
        /// 6206: the EMV data is not well-formed BER-TLV, or its amount (9F02) or currency
        /// (5F2A) is not the BCD number it must be.
        public static let malformedEMVData = Kind(6206, "malformedEMVData")
        /// 6207: a data element the cryptogram needs is missing or has the wrong length.
        public static let missingEMVData = Kind(6207, "missingEMVData")
        /// 6208: the ARQC does not verify.
        public static let badARQC = Kind(6208, "badARQC")

        /// `name (code)`.
        public var description: String { "\(name) (\(code))" }
    }

    /// What went wrong.
    public let kind: Kind
    /// Detail for developers; never card data.
    public let message: String
    /// The card number masked (first 6 / last 4) when it is known.
    public let maskedPAN: String?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, maskedPAN: String? = nil) {
        self.kind = kind
        self.message = message
        self.maskedPAN = maskedPAN
    }

    /// The stable numeric code of ``kind``.
    public var code: Int { kind.code }

    /// `SandboxIssuerError <code> <name>: <message> [card <masked>]`.
    public var description: String {
        "SandboxIssuerError \(kind.code) \(kind.name): \(message)" + (maskedPAN.map { " [card \($0)]" } ?? "")
    }

    /// Errors compare by kind alone.
    public static func == (lhs: SandboxIssuerError, rhs: SandboxIssuerError) -> Bool { lhs.kind == rhs.kind }

    /// Hashes the kind alone.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// Matches an error against a kind: `catch let e where e ~= .badARQC`.
    public static func ~= (kind: Kind, error: SandboxIssuerError) -> Bool { error.kind == kind }
}
