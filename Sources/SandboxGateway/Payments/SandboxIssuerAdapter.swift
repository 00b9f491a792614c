import EMV
import Foundation
import MPOSCore
import SandboxCards

/// The gateway's issuer: the sandbox issuer of `SandboxCards`, which opens the DUKPT envelope,
/// finds the test card, verifies the ARQC and decides by the card's balance and the scenario
/// amounts.
public struct SandboxCardIssuer: PaymentIssuer {
    /// The issuer policy.
    public let issuer: SandboxIssuer

    /// Creates the adapter over the sandbox catalog (or another issuer, for tests).
    public init(issuer: SandboxIssuer = SandboxIssuer()) { self.issuer = issuer }

    /// Verifies with ``SandboxIssuer/verify(emvData:encryptedCardData:ksn:maskedPAN:)`` and
    /// works the decision out as far as it can without the card's spend so far
    /// (``SandboxIssuer/pendingDecision(_:amount:currency:now:allowPartial:)``).
    public func verify(_ request: IssuerRequest, allowPartial: Bool, now: Date) throws(PaymentRuleViolation)
        -> IssuerVerification
    {
        let verified: VerifiedAuthorization
        do {
            verified = try issuer.verify(
                emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn,
                maskedPAN: request.maskedPAN)
        } catch {
            // The error's message never carries the PAN; its masked PAN is not echoed either.
            throw PaymentRuleViolation(.cardDataRejected, "The card data was refused: \(error.kind.name).")
        }
        let card = verified.card
        let pending = issuer.pendingDecision(
            verified, amount: request.amount, currency: request.currency, now: now, allowPartial: allowPartial)
        return IssuerVerification(
            pan: card.pan, expiry: card.expiry,
            cardholderName: verified.cardData.cardholderName ?? card.cardholderName,
            brand: card.scheme.rawValue, counters: verified.counters
        ) { spent in
            let decision = pending.decision(spentSoFar: spent)
            return IssuerAnswer(
                approved: decision.isApproved,
                approvedAmount: decision.isApproved ? decision.approvedAmount : nil,
                responseCode: decision.responseCode, authorizationCode: decision.authorizationCode,
                message: decision.isApproved
                    ? (decision.isPartial ? "Partially approved" : "Approved") : decision.reason,
                issuerAuthenticationData: decision.issuerAuthenticationData)
        }
    }
}
