import EMV
import Foundation
import GatewayAPI
import MPOSCore

/// Forwarded offline sales: the card approved them offline (TC) while the gateway could not
/// be reached, and the SDK forwards them later under the idempotency key it fixed when it
/// stored them.
extension PaymentService {
    /// The cryptogram information data (9F27) of a transaction certificate.
    static let transactionCertificate: UInt8 = 0x40

    /// Checks that a forwarded offline sale is one: a sale (no refund, authorisation or partial
    /// approval offline), chip or contactless, whose EMV data carries the card's TC. The issuer
    /// then verifies the TC like an ARQC and decides by the balance as it is now.
    ///
    /// - Throws: ``PaymentRuleViolation`` (`invalidField` or `cardDataRejected`).
    static func checkOfflineForward(_ command: CardPaymentCommand) throws(PaymentRuleViolation) {
        let request = command.request
        guard request.offlineStoredAt != nil else { return }
        guard command.kind == .sale, request.parameters.captureMode == .completedSale,
            !request.parameters.allowPartialApproval
        else {
            throw PaymentRuleViolation(
                .invalidField, "Only a completed sale without partial approval is taken offline.")
        }
        guard request.entryMode == .chip || request.entryMode == .contactless else {
            throw PaymentRuleViolation(.invalidField, "Only a chip or contactless sale is taken offline.")
        }
        // Undecodable EMV data has no tags to read here; the issuer's verification refuses it afterwards.
        let tree = try? TLVTree(decoding: command.emvData)
        guard let cid = tree?[0x9F27], cid.first.map({ $0 & 0xC0 }) == transactionCertificate else {
            throw PaymentRuleViolation(
                .cardDataRejected, "A forwarded offline sale must carry the card's TC (9F27 40).")
        }
    }
}
