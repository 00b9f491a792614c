import EMV
import MPOSCore

/// What the reader hands the SDK for an online authorization (or for storing an offline
/// approval): the clear EMV data with the cryptogram, and the card data sealed for the host.
///
/// Holds no card number or track data in clear: the EMV data never contains 5A or 57, and
/// only the first 6 / last 4 digits travel beside it.
public struct AuthorizationData: Sendable, Hashable {
    /// BER-TLV: 9F26 9F27 9F10 9F36 9F37 95 9A 9C 9F02 9F03 5F2A 82 84 9F1A 9F34 9F33 9F35
    /// 5F34 50 9F39 9B (chip and contactless); a swipe has no 9F26, 9F27, 9F10, 9F36, 82, 84.
    public let emvData: [UInt8]
    /// The sealed ``SandboxCards/CardDataPlaintext`` (CardDataEnvelope under DUKPT).
    public let encryptedCardData: [UInt8]
    /// The 12-byte KSN of the DUKPT transaction key that sealed ``encryptedCardData``.
    public let ksn: [UInt8]
    /// First 6 / last 4 digits, the rest `*`.
    public let maskedPAN: String
    /// Cardholder name, when the card carries one.
    public let cardholderName: String?
    /// Card expiry `YYMM`.
    public let expiry: String
    /// How the card was read.
    public let entryMode: CardEntryMode
    /// How the cardholder was verified.
    public let cvm: CardholderVerification
    /// The selected application's AID in hex, for chip and contactless.
    public let aid: String?
    /// The selected application's label, for chip and contactless.
    public let applicationLabel: String?
    /// The card scheme.
    public let scheme: CardScheme
    /// Whether the merchant must collect a signature once approved.
    public let signatureRequired: Bool
}
