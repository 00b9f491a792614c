import Foundation
import GatewayAPI
import MPOSCore

/// The content of one copy as a list of rows, which the text and HTML renderers lay out:
/// both show the same fields in the same order.
extension PaymentReceipt {
    /// One row of a receipt.
    enum Row: Hashable {
        /// The merchant's name, large and centred.
        case title(String)
        /// A centred line.
        case centered(String)
        /// A centred, emphasised line (the copy, the outcome, the verification).
        case emphasis(String)
        /// A label and its value.
        case pair(String, String)
        /// A separator.
        case rule
        /// The cardholder's signature line.
        case signatureLine
    }

    /// The rows of `copy`.
    func rows(_ copy: ReceiptCopy, timeZone: TimeZone) -> [Row] {
        var rows: [Row] = [.title(merchantName.isEmpty ? "MERCHANT" : merchantName)]
        for line in (merchantAddress ?? "").split(whereSeparator: \.isNewline) where !line.isEmpty {
            rows.append(.centered(String(line)))
        }
        if let merchantID { rows.append(.pair("MID", merchantID)) }
        if let terminalID { rows.append(.pair("TID", terminalID)) }
        rows.append(.rule)
        rows.append(.emphasis(copy == .customer ? "CUSTOMER COPY" : "MERCHANT COPY"))
        // Contactless is announced in the header; a contact read in the card details.
        rows.append(.emphasis(entryMode == .contactless ? "\(kindLabel) - CONTACTLESS" : kindLabel))
        rows.append(.pair("Date", Self.dateText(date, timeZone: timeZone)))
        if let receiptNumber { rows.append(.pair("Receipt #", String(receiptNumber))) }
        rows.append(.rule)
        if let scheme { rows.append(.pair("Card", scheme.uppercased())) }
        if let applicationLabel { rows.append(.pair("Application", applicationLabel)) }
        if let maskedPAN { rows.append(.pair("Card number", maskedPAN)) }
        if let entryMode { rows.append(.pair("Entry mode", Self.entryText(entryMode))) }
        if let accountType { rows.append(.pair("Account", accountType.name)) }
        if let aid { rows.append(.pair("AID", aid)) }
        if let cryptogram { rows.append(.pair(status == .approved ? "TC" : "AC", cryptogram)) }
        if let tvr { rows.append(.pair("TVR", tvr)) }
        if let tsi { rows.append(.pair("TSI", tsi)) }
        rows.append(.rule)
        if !lines.isEmpty {
            for line in lines {
                rows.append(.pair("\(line.quantity) x \(line.description)", Receipt.format(line.total, currency)))
            }
            if !taxes.isEmpty { rows.append(.centered("Prices include tax")) }
            for tax in taxes {
                rows.append(.pair("Net \(tax.rateText)", Receipt.format(tax.netAmount, currency)))
                rows.append(.pair("Tax \(tax.rateText)", Receipt.format(tax.taxAmount, currency)))
            }
            rows.append(.rule)
        }
        if tipAmount > 0 {
            rows.append(.pair("Amount", Receipt.format(amount - tipAmount, currency)))
            rows.append(.pair("Tip", Receipt.format(tipAmount, currency)))
        }
        rows.append(.pair("TOTAL", Receipt.format(amount, currency)))
        rows.append(.rule)
        rows.append(.emphasis(status.rawValue.uppercased()))
        if reversed { rows.append(.emphasis("REVERSED")) }
        if let authorizationCode { rows.append(.pair("Approval code", authorizationCode)) }
        if let responseCode { rows.append(.pair("Response", Self.responseText(responseCode))) }
        if let transactionID { rows.append(.pair("Transaction", transactionID.rawValue)) }
        if let batchID { rows.append(.pair("Batch", batchID)) }
        rows.append(contentsOf: verification(copy))
        if status == .declined || status == .cancelled { rows.append(.centered("Nothing was charged.")) }
        rows.append(.rule)
        rows.append(.centered(copy == .customer ? "Please keep this receipt." : "Keep for your records."))
        return rows
    }

    /// The cardholder verification rows, for an approval only.
    private func verification(_ copy: ReceiptCopy) -> [Row] {
        guard status == .approved, !reversed else { return [] }
        var rows: [Row] = []
        switch cvm {
        case .pin?: rows.append(.emphasis("PIN VERIFIED"))
        case .pinAndSignature?: rows.append(.emphasis("PIN VERIFIED"))
        case .onDevice?: rows.append(.emphasis("VERIFIED ON CARDHOLDER DEVICE"))
        case .notRequired?: rows.append(.emphasis("NO CARDHOLDER VERIFICATION"))
        case .signature?, .failed?, nil: break
        }
        if signatureRequired || cvm == .signature {
            rows.append(copy == .merchant ? .signatureLine : .centered("Signed on the merchant copy."))
        }
        return rows
    }

    /// `"SALE"`, `"SALE VOID"`, `"PRE AUTHORIZATION"`: the kind's name in capitals.
    var kindLabel: String {
        var label = ""
        for character in kind.rawValue {
            if character.isUppercase { label.append(" ") }
            label.append(character)
        }
        return label.uppercased()
    }

    static func entryText(_ mode: CardEntryMode) -> String {
        switch mode {
        case .chip: "CHIP (CONTACT)"
        case .contactless: "CONTACTLESS"
        case .magstripe: "MAGSTRIPE"
        case .magstripeFallback: "MAGSTRIPE (FALLBACK)"
        case .manual: "MANUAL"
        case .cardNotPresent: "CARD NOT PRESENT"
        }
    }

    /// The response code with its meaning, such as `"00 APPROVED"`.
    static func responseText(_ code: String) -> String {
        AuthorizationResponseCode.message(for: code).map { "\(code) \($0)" } ?? code
    }

    static func dateText(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date) + " "
            + (["GMT", "UTC"].contains(timeZone.identifier) ? "UTC" : timeZone.identifier)
    }
}
