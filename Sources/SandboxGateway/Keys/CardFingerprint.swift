import Crypto
import EMV
import Foundation

/// Recognises the same card across payments without storing its number.
///
/// The fingerprint is HMAC-SHA256 keyed with the gateway's ``CardFingerprintKey`` over the
/// PAN's digits, in lower case hex. Without the key the fingerprint cannot be brute-forced back
/// to a PAN (a PAN has too little entropy for a plain hash), and the ledger never holds the PAN
/// itself. The key is kept apart from the ledger: with both, the masked PAN's candidates can
/// be tried in under a second.
public struct CardFingerprinter: Sendable {
    private let key: SymmetricKey

    /// Creates a fingerprinter keyed with `key`.
    public init(key: CardFingerprintKey) {
        self.key = SymmetricKey(data: key.bytes)
    }

    /// Creates a fingerprinter keyed with `secret` (at least 16 bytes), for tests.
    public init(secret: some Collection<UInt8>) {
        precondition(secret.count >= 16, "the fingerprint secret must be at least 16 bytes")
        self.key = SymmetricKey(data: Array(secret))
    }

    /// The fingerprint of `pan`: 64 lower-case hex digits.
    public func fingerprint(_ pan: PAN) -> String {
        fingerprintBytes(Array(pan.unmaskedDigits.utf8))
    }

    /// The fingerprint of any identifier's bytes, such as an IBAN's.
    public func fingerprintBytes(_ bytes: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: key)
        return Hex.encode(Array(mac)).lowercased()
    }
}
