import EMV
import Foundation
import MPOSCore
import SandboxCards

/// What the gateway sends its issuer for a card-present EMV authorisation.
public struct IssuerRequest: Sendable {
    /// The BER-TLV EMV data the reader sent (ARQC and the data it covers).
    public var emvData: [UInt8]
    /// The DUKPT-sealed card data.
    public var encryptedCardData: [UInt8]
    /// The key serial number that sealed it.
    public var ksn: [UInt8]
    /// The amount asked for, minor units.
    public var amount: Int64
    /// The currency.
    public var currency: Currency
    /// What the transaction does.
    public var kind: TransactionKind
    /// The masked PAN the reader showed, checked against the card data when given.
    public var maskedPAN: String?

    /// Creates a request.
    public init(
        emvData: [UInt8], encryptedCardData: [UInt8], ksn: [UInt8], amount: Int64, currency: Currency,
        kind: TransactionKind, maskedPAN: String? = nil
    ) {
        self.maskedPAN = maskedPAN
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.amount = amount
        self.currency = currency
        self.kind = kind
    }
}

/// A card the issuer opened and whose cryptogram checked out, with what the gateway may keep
/// about it and a way to get the issuer's decision.
public struct IssuerVerification: Sendable {
    /// The card number, only to fingerprint and mask; never stored or logged.
    public var pan: PAN
    /// Expiry `YYMM`.
    public var expiry: String?
    /// The name the card reports.
    public var cardholderName: String?
    /// The card brand.
    public var brand: String
    /// The request's KSN, card application and ATC, which the gateway checks against what it
    /// has seen (``CryptogramReplay``) before it asks for a decision; `nil` skips the check.
    public var counters: CryptogramCounters?
    /// Decides, given what the card has spent so far; pure and fast (the rest of the work is
    /// done in ``PaymentIssuer/verify(_:allowPartial:now:)``), because the gateway calls it
    /// inside the serialized write transaction that reads the spend.
    public var decide: @Sendable (_ spentSoFar: Int64) -> IssuerAnswer

    /// Creates a verification.
    public init(
        pan: PAN, expiry: String?, cardholderName: String?, brand: String,
        counters: CryptogramCounters? = nil,
        decide: @escaping @Sendable (_ spentSoFar: Int64) -> IssuerAnswer
    ) {
        self.pan = pan
        self.expiry = expiry
        self.cardholderName = cardholderName
        self.brand = brand
        self.counters = counters
        self.decide = decide
    }
}

/// The issuer's decision.
public struct IssuerAnswer: Sendable, Hashable {
    /// Whether the issuer approved (in full or in part).
    public var approved: Bool
    /// The approved amount when it differs from the requested one (partial approval).
    public var approvedAmount: Int64?
    /// ISO 8583 response code; `00` approved, `10` partial approval.
    public var responseCode: String
    /// Authorisation code when approved.
    public var authorizationCode: String?
    /// The issuer's message.
    public var message: String
    /// EMV 91 for the card (ARPC + CSU).
    public var issuerAuthenticationData: [UInt8]?

    /// Creates an answer.
    public init(
        approved: Bool, approvedAmount: Int64?, responseCode: String, authorizationCode: String?,
        message: String,
        issuerAuthenticationData: [UInt8]?
    ) {
        self.approved = approved
        self.approvedAmount = approvedAmount
        self.responseCode = responseCode
        self.authorizationCode = authorizationCode
        self.message = message
        self.issuerAuthenticationData = issuerAuthenticationData
    }
}

/// The issuer seam: opens the card data and checks the cryptogram, then decides.
public protocol PaymentIssuer: Sendable {
    /// Opens and verifies one authorisation request, to be decided at `now`.
    /// - Throws: ``PaymentRuleViolation`` with ``PaymentRuleViolation/Reason/cardDataRejected``
    ///   when the card data cannot be opened, the card is unknown or the cryptogram is wrong.
    func verify(_ request: IssuerRequest, allowPartial: Bool, now: Date) throws(PaymentRuleViolation)
        -> IssuerVerification
}
