import Crypto
import EMV
import Foundation

/// Recognises the same card across payments without storing its number.
///
/// The fingerprint is HMAC-SHA256 keyed with a gateway secret over the PAN's digits, in lower
/// case hex. Without the secret the fingerprint cannot be brute-forced back to a PAN (a PAN has
/// too little entropy for a plain hash), and the ledger never holds the PAN itself.
public struct CardFingerprinter: Sendable {
    private let key: SymmetricKey

    /// Creates a fingerprinter keyed with `secret` (at least 16 bytes).
    public init(secret: some Collection<UInt8>) {
        precondition(secret.count >= 16, "the fingerprint secret must be at least 16 bytes")
        self.key = SymmetricKey(data: Array(secret))
    }

    /// 32 fresh random bytes for a secret.
    public static func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
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
