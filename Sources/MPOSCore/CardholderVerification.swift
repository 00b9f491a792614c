/// How the cardholder's identity was verified (the cardholder verification method, CVM).
///
/// The raw values are the case names and are stable: they appear in stored records and
/// on the wire.
public enum CardholderVerification: String, Sendable, Hashable, Codable, CaseIterable {
    /// The cardholder signed and the merchant accepted the signature.
    case signature
    /// The cardholder entered a PIN, checked online by the issuer or offline by the chip.
    case pin
    /// The cardholder entered a PIN and also signed.
    case pinAndSignature
    /// The cardholder was verified on their own phone or watch (consumer device CVM,
    /// such as a fingerprint or passcode for a mobile wallet).
    case onDevice
    /// Verification was attempted and failed (wrong PIN, signature rejected).
    case failed
    /// No verification was needed, as for a low-value contactless payment.
    case notRequired
}
