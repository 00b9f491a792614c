import CardCrypto
import EMV

/// An authorization request whose card data opened and whose ARQC verified: what
/// ``SandboxIssuer/verify(emvData:encryptedCardData:ksn:maskedPAN:)`` returns and
/// ``SandboxIssuer/decide(_:amount:currency:now:allowPartial:spentSoFar:)`` judges.
public struct VerifiedAuthorization: Sendable, Equatable {
    /// The sandbox card.
    public let card: SandboxCard
    /// The decrypted card data.
    public let cardData: CardDataPlaintext
    /// The DUKPT key serial number the card data was sealed under.
    public let ksn: KSN
    /// Application Transaction Counter (9F36); `nil` for a swipe.
    public let atc: UInt16?
    /// The verified ARQC (9F26); `nil` for a swipe.
    public let arqc: [UInt8]?
    /// Amount, Authorised (9F02) in minor units, when the EMV data has it.
    public let amount: Int64?
    /// Transaction Currency Code (5F2A), ISO 4217 numeric, when the EMV data has it.
    public let currencyCode: Int?
    /// Terminal Verification Results (95), when present.
    public let tvr: [UInt8]?
    /// The chip's Card Verification Results from 9F10, when in the sandbox layout.
    public let cardVerificationResults: CardVerificationResults?
    /// POS entry mode (9F39), when present: `05` chip, `07` contactless, `90` swipe, `80`
    /// fallback swipe.
    public let posEntryMode: UInt8?
    /// The AC session key, kept for the ARPC. Never printed.
    let sessionKey: AES128Key?
    /// Transaction Date (9A), covered by the ARQC; `nil` for a swipe.
    var transactionDate: [UInt8]? = nil

    /// What makes this request unrepeatable, for ``CryptogramReplay``: the KSN, the card
    /// application's PSN, and for a chip request its ATC and transaction date.
    public var counters: CryptogramCounters {
        CryptogramCounters(
            ksn: ksn.bytes, panSequenceNumber: card.panSequenceNumberBCD, atc: atc,
            transactionDate: atc == nil ? nil : transactionDate.map { Hex.encode($0) })
    }

    /// Whether the request carried a chip cryptogram (chip or contactless) rather than a swipe.
    public var hasCryptogram: Bool { arqc != nil }
}

/// What the sandbox issuer answers.
public struct IssuerDecision: Sendable, Hashable {
    /// ISO 8583 response code (EMV tag 8A): `00` approved, `10` partially approved, else
    /// declined (`05`, `13`, `14`, `51`, `54`, `55`, `62`, `75`).
    public let responseCode: String
    /// The amount approved in minor units: the requested amount for `00`, less for `10`, 0
    /// when declined.
    public let approvedAmount: Int64
    /// A 6-character authorization code (tag 89) for approvals, else `nil`.
    public let authorizationCode: String?
    /// Issuer Authentication Data (tag 91): ARPC then the CSU, for the chip's second GENERATE
    /// AC; `nil` for a swipe.
    public let issuerAuthenticationData: [UInt8]?
    /// The Card Status Update inside ``issuerAuthenticationData``.
    public let cardStatusUpdate: CardStatusUpdate
    /// Why, in a few words (no card data).
    public let reason: String

    /// Whether the issuer approved all or part of the amount.
    public var isApproved: Bool { responseCode == "00" || responseCode == "10" }

    /// Whether the approval is partial (`10`).
    public var isPartial: Bool { responseCode == "10" }

    /// The issuer response for the reader as BER-TLV: 8A (two ASCII digits), 89 when approved,
    /// 91 when present.
    public var responseEMVData: [UInt8] {
        var objects = [TLV(0x8A, value: Array(responseCode.utf8))]
        if let authorizationCode { objects.append(TLV(0x89, value: Array(authorizationCode.utf8))) }
        if let issuerAuthenticationData { objects.append(TLV(0x91, value: issuerAuthenticationData)) }
        return (try? TLV.encode(objects)) ?? []
    }
}
