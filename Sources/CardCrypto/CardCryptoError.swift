/// The one error type CardCrypto throws.
///
/// A struct rather than an enum so that new kinds can be added without breaking anyone's
/// `switch`. Each error carries a ``Kind`` with a stable numeric ``code`` in the block
/// 6100...6199, which no other MPOSKit category uses (see `MPOSError.Category`), so a caller can
/// forward the code unchanged.
///
/// ## No sensitive data
///
/// Messages never contain key material, plaintext, PINs or card data: they name the problem,
/// the tag or the length, never a value.
public struct CardCryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with a stable numeric code.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The stable numeric code, 6100...6199. A released code never changes meaning.
        public let code: Int
        /// A short name for logs, such as `invalidKeyLength`.
        public let name: String

        init(_ code: Int, _ name: String) {
            self.code = code
            self.name = name
        }

        /// 6101: a key is not 16 bytes (AES-128).
        public static let invalidKeyLength = Kind(6101, "invalidKeyLength")
        /// 6102: a DUKPT Initial Key ID is not 8 bytes.
        public static let invalidInitialKeyID = Kind(6102, "invalidInitialKeyID")
        /// 6103: a key serial number is not 12 bytes or is not hex.
        public static let invalidKSN = Kind(6103, "invalidKSN")
        /// 6104: a DUKPT transaction counter is zero or has more than 16 one-bits
        /// (ANSI X9.24-3-2017, 6.1: such counters are never used).
        public static let invalidTransactionCounter = Kind(6104, "invalidTransactionCounter")
        /// 6105: the DUKPT transaction counter is exhausted; the reader needs a new initial key.
        public static let counterExhausted = Kind(6105, "counterExhausted")
        /// 6106: ciphertext length is zero or not a multiple of the 16-byte AES block.
        public static let malformedCiphertext = Kind(6106, "malformedCiphertext")
        /// 6107: decryption produced invalid padding: wrong key, wrong KSN or altered ciphertext.
        public static let decryptionFailed = Kind(6107, "decryptionFailed")
        /// 6108: a data element needed for the cryptogram input is missing.
        public static let missingDataElement = Kind(6108, "missingDataElement")
        /// 6109: a data element has the wrong length.
        public static let invalidDataElementLength = Kind(6109, "invalidDataElementLength")
        /// 6110: a PAN or PAN sequence number is not made of decimal digits of a usable length.
        public static let invalidPAN = Kind(6110, "invalidPAN")
        /// 6111: the underlying AES primitive failed (should not happen with valid sizes).
        public static let cryptoFailure = Kind(6111, "cryptoFailure")

        /// `name (code)`.
        public var description: String { "\(name) (\(code))" }
    }

    /// What went wrong.
    public let kind: Kind
    /// Detail for developers and logs; never contains keys, plaintext or card data.
    public let message: String

    /// Creates an error of `kind`. The message must follow the no-sensitive-data rule.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The stable numeric code of ``kind``.
    public var code: Int { kind.code }

    /// `CardCryptoError <code> <name>: <message>`.
    public var description: String { "CardCryptoError \(kind.code) \(kind.name): \(message)" }

    /// Errors compare by kind alone, so `catch` clauses can match a constant.
    public static func == (lhs: CardCryptoError, rhs: CardCryptoError) -> Bool { lhs.kind == rhs.kind }

    /// Hashes the kind alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// Pattern-matches an error against a kind: `catch let e where e ~= .decryptionFailed`.
    public static func ~= (kind: Kind, error: CardCryptoError) -> Bool { error.kind == kind }
}
