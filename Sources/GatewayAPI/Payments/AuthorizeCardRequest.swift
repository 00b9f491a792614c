import MPOSCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /v1/payments/card`: authorise a card payment (sale, authorisation,
/// pre-authorisation or unreferenced refund) with the data the reader produced.
///
/// Card data reaches the gateway only encrypted at the reader (`encryptedCardData` under the
/// DUKPT key identified by `ksn`); `maskedPAN` is first 6 / last 4 at most.
///
/// Rules the gateway checks (4001 when broken): hex fields are even-length hex, and the rules
/// of ``PaymentParameters`` (``GatewayValidation``). With ``reader``, the reader's update
/// deadlines too (``PaymentReader``; 422/4221 when it is past one).
public struct AuthorizeCardRequest: Codable, Sendable, Hashable {
    /// What to do.
    public var kind: CardPaymentKind
    /// The payment's details (amount, currency, flags, descriptor, basket), written in the
    /// request's own JSON object beside the card fields.
    public var parameters: PaymentParameters
    /// The EMV data (BER-TLV: ARQC, CDOL1 data, TVR, …) as hex, for chip and contactless.
    public var emvData: String?
    /// Card data (Track 2 equivalent) sealed at the reader, as hex.
    public var encryptedCardData: String?
    /// The DUKPT key serial number that sealed `encryptedCardData`, as hex.
    public var ksn: String?
    /// The masked card number as the reader shows it (first 6, last 4).
    public var maskedPAN: String?
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// Set on a sale the card approved offline (TC) and the SDK stored, when it is forwarded:
    /// when it was stored. The gateway then verifies the TC in `emvData` and decides by the
    /// card's balance (approved, or declined after the fact).
    public var offlineStoredAt: Date?
    /// The reader the card was read on. The gateway registers it at its first payment and
    /// refuses the payment (``GatewayErrorCode/terminalDeactivated``) when the reader is past an
    /// update's deadline and its grace period; a forwarded offline sale is judged at
    /// ``offlineStoredAt``, when it was taken. Without it (older SDKs, calls made without a
    /// reader) no deadline is checked.
    public var reader: PaymentReader?
    /// The tip the cardholder chose on the reader, minor units, on top of the parameters'
    /// amount: the chip's cryptogram covers the amount plus this tip (9F02), and the gateway
    /// stores it as the transaction's ``Transaction/tipAmount``. At least zero, the total at
    /// most ``GatewayValidation/maximumTotalAmount``; sales, authorisations and
    /// pre-authorisations only. Omitted (older SDKs, no tip prompt) means no tip.
    public var tipAmount: Int64?

    /// Creates a request for `parameters` paid with the card the reader read.
    public init(
        kind: CardPaymentKind, parameters: PaymentParameters, emvData: String? = nil,
        encryptedCardData: String? = nil, ksn: String? = nil, maskedPAN: String? = nil,
        entryMode: CardEntryMode, cvm: CardholderVerification, reader: PaymentReader? = nil,
        tipAmount: Int64? = nil
    ) {
        self.tipAmount = tipAmount
        self.kind = kind
        self.parameters = parameters
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.maskedPAN = maskedPAN
        self.entryMode = entryMode
        self.cvm = cvm
        self.reader = reader
    }

    /// The keys of the card fields; ``PaymentParameters`` reads and writes its own keys in
    /// the same JSON object.
    private enum CodingKeys: String, CodingKey {
        case kind, emvData, encryptedCardData, ksn, maskedPAN, entryMode, cvm, offlineStoredAt, reader
        case tipAmount
    }

    /// Decodes a request, filling in the defaults of omitted optional flags.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.kind = try c.decode(CardPaymentKind.self, forKey: .kind)
        self.parameters = try PaymentParameters(from: decoder)
        self.emvData = try c.decodeIfPresent(String.self, forKey: .emvData)
        self.encryptedCardData = try c.decodeIfPresent(String.self, forKey: .encryptedCardData)
        self.ksn = try c.decodeIfPresent(String.self, forKey: .ksn)
        self.maskedPAN = try c.decodeIfPresent(String.self, forKey: .maskedPAN)
        self.entryMode = try c.decode(CardEntryMode.self, forKey: .entryMode)
        self.cvm = try c.decode(CardholderVerification.self, forKey: .cvm)
        self.offlineStoredAt = try c.decodeIfPresent(Date.self, forKey: .offlineStoredAt)
        self.reader = try c.decodeIfPresent(PaymentReader.self, forKey: .reader)
        self.tipAmount = try c.decodeIfPresent(Int64.self, forKey: .tipAmount)
    }

    /// Encodes the request as one flat JSON object: the parameters' keys and the card fields.
    public func encode(to encoder: any Encoder) throws {
        try parameters.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(emvData, forKey: .emvData)
        try c.encodeIfPresent(encryptedCardData, forKey: .encryptedCardData)
        try c.encodeIfPresent(ksn, forKey: .ksn)
        try c.encodeIfPresent(maskedPAN, forKey: .maskedPAN)
        try c.encode(entryMode, forKey: .entryMode)
        try c.encode(cvm, forKey: .cvm)
        try c.encodeIfPresent(offlineStoredAt, forKey: .offlineStoredAt)
        try c.encodeIfPresent(reader, forKey: .reader)
        try c.encodeIfPresent(tipAmount, forKey: .tipAmount)
    }
}
