import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

// What the engine reports: the app's result and the merchant copy to sign.
extension PaymentEngine {
    /// The merchant copy to sign: the payment as the host approved it, verified by signature.
    func signatureRequest() -> SignatureRequest {
        var approved = result(.approved, error: nil, reversed: false)
        if approved.cvm != .pinAndSignature { approved.cvm = .signature }
        return SignatureRequest(receipt: PaymentReceipt(approved))
    }

    func result(_ status: PaymentStatus, error: MPOSError?, reversed: Bool) -> PaymentResult {
        var emv: EMVReceiptSummary?
        // Receipt details only: EMV data that does not parse leaves the TVR, TSI and TC blank.
        let tree = outcome.flatMap { try? TLVTree(decoding: $0.emvData) }
        if let authorization {
            // TVR and TSI as the card left them; the request's values when the card never finished
            // (blank when neither parses: they are receipt details).
            let request = try? TLVTree(decoding: authorization.emvData)
            emv = EMVReceiptSummary(
                aid: authorization.aid.map { Hex.encode($0) },
                applicationLabel: authorization.applicationLabel,
                transactionCertificate: outcome?.cryptogramType == .tc
                    ? tree?[0x9F26].map { Hex.encode($0) } : nil,
                tvr: (tree?[0x95] ?? request?[0x95]).map { Hex.encode($0) },
                tsi: (tree?[0x9B] ?? request?[0x9B]).map { Hex.encode($0) },
                applicationPreferredName: request?[0x9F12].flatMap { String(bytes: $0, encoding: .utf8) },
                accountType: request?[0x5F57].flatMap { AccountType(tagValue: Array($0)) })
        }
        let hostExpiry = host?.card.flatMap { card -> (month: Int, year: Int)? in
            guard let month = card.expiryMonth, let year = card.expiryYear else { return nil }
            return (month, year)
        }
        let expiry = hostExpiry ?? CardSummary.expiryParts(yymm: authorization?.expiry)
        return PaymentResult(
            status: status, kind: host?.kind ?? kind.transactionKind, requestedAmount: parameters.amount,
            approvedAmount: status == .approved
                ? (host?.approvedAmount ?? parameters.amount)
                : status == .approvedOffline ? parameters.amount : 0,
            currency: parameters.currency, transactionID: host?.id, idempotencyKey: key,
            authorizationCode: status == .approved ? host?.authorizationCode : nil,
            responseCode: host?.responseCode,
            cvm: outcome?.cvm ?? authorization?.cvm,
            entryMode: outcome?.entryMode ?? authorization?.entryMode,
            maskedPAN: host?.card?.maskedPAN ?? authorization?.maskedPAN, scheme: host?.card?.scheme,
            emv: emv, pinVerified: outcome?.pinVerified ?? false, reversed: reversed, recovered: recovered,
            error: error, merchantName: merchantName, date: host?.createdAt ?? entry.createdAt,
            basket: parameters.basket, offlineID: offlineID, batchID: host?.batchID,
            acquirerMessage: host?.acquirerMessage,
            cardholderName: host?.card?.cardholderName ?? authorization?.cardholderName,
            expiryMonth: expiry?.month, expiryYear: expiry?.year, signature: status == .approved ? signature : nil,
            tipAmount: tipAmount(status), tipPercentage: tipPercentage(status))
    }

    /// The tip of the result: as the gateway recorded it once approved (a partial approval
    /// may cover less of it), else what the cardholder chose.
    func tipAmount(_ status: PaymentStatus) -> Int64 {
        if status == .approved, let host { return host.tipAmount }
        return tip?.tipAmountMinorUnits ?? 0
    }

    /// The percentage the cardholder picked, while the tip is still the one it made.
    func tipPercentage(_ status: PaymentStatus) -> Int? {
        guard let tip, let percentage = tip.percentage, tipAmount(status) == tip.tipAmountMinorUnits,
            tip.tipAmountMinorUnits > 0
        else { return nil }
        return Int(percentage)
    }
}
