import Foundation
import MPOSCore
import TerminalAPI

/// A payment's receipts in the Terminal API, as Adyen's terminals put them in a
/// `PaymentResponse`: a `CashierReceipt` and a `CustomerReceipt`, each an `OutputContent` of
/// format Text whose `OutputText` lines are URL-encoded `name=…&value=…&key=…` (the `key`
/// names the line, so that a sale system can lay it out or pick values from it).
///
/// ```swift
/// let nexo = NexoReceipts.paymentReceipts(PaymentReceipt(result))
/// let aid = nexo.first?.outputContent.outputText?.first { $0.text.hasSuffix("key=aid") }
/// ```
public enum NexoReceipts {
    /// The two copies of `receipt`, merchant (`CashierReceipt`) first, as Adyen sends them;
    /// none for a payment that was not approved (Adyen's terminals send an empty list then).
    ///
    /// The card number shows only its last four digits; the merchant copy has
    /// `RequiredSignatureFlag` set when the cardholder signs.
    ///
    /// - Parameters:
    ///   - storedOfflineID: the stored id of a sale approved offline, printed so that the
    ///     merchant can match it when it is forwarded.
    ///   - timeZone: the zone of the printed date and time.
    public static func paymentReceipts(
        _ receipt: PaymentReceipt, storedOfflineID: UUID? = nil,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) -> [TerminalAPI.PaymentReceipt] {
        guard receipt.status == .approved || receipt.status == .approvedOffline else { return [] }
        return [ReceiptCopy.merchant, .customer].map { copy in
            TerminalAPI.PaymentReceipt(
                documentQualifier: copy == .merchant ? .cashierReceipt : .customerReceipt,
                outputContent: OutputContent(
                    outputFormat: .text,
                    outputText: lines(
                        receipt, copy: copy, storedOfflineID: storedOfflineID, timeZone: timeZone)),
                requiredSignatureFlag: copy == .merchant && receipt.signatureRequired)
        }
    }

    /// The lines of one copy, in Adyen's order: header, copy title, date, card, references,
    /// total, outcome.
    static func lines(
        _ receipt: PaymentReceipt, copy: ReceiptCopy, storedOfflineID: UUID?, timeZone: TimeZone
    ) -> [OutputText] {
        var lines: [OutputText] = [
            line(key: "header1", name: receipt.merchantName, bold: true),
            line(
                key: "header2", name: receipt.merchantAddress?.replacingOccurrences(of: "\n", with: ", "),
                bold: true),
            copy == .merchant
                ? line(key: "merchantTitle", name: "MERCHANT COPY", bold: true)
                : line(key: "cardholderHeader", name: "CARDHOLDER COPY", bold: true),
            filler,
            line(key: "txdate", name: "Date", value: stamp(receipt.date, "dd/MM/yy", timeZone)),
            line(key: "txtime", name: "Time", value: stamp(receipt.date, "HH:mm:ss", timeZone)),
            filler,
        ]
        if let pan = receipt.maskedPAN { lines.append(line(key: "pan", name: "Card", value: lastFour(pan))) }
        if let label = receipt.applicationLabel {
            lines.append(line(key: "preferredName", name: "Pref. name", value: label))
        }
        if let scheme = receipt.scheme {
            lines.append(line(key: "cardType", name: "Card type", value: scheme))
        }
        if let mode = receipt.entryMode {
            lines.append(line(key: "posEntryMode", name: "Entry mode", value: PaymentReceipt.entryText(mode)))
        }
        lines.append(filler)
        if let aid = receipt.aid { lines.append(line(key: "aid", name: "AID", value: aid)) }
        if let mid = receipt.merchantID { lines.append(line(key: "mid", name: "MID", value: mid)) }
        if let tid = receipt.terminalID { lines.append(line(key: "tid", name: "TID", value: tid)) }
        lines.append(filler)
        if let code = receipt.authorizationCode {
            lines.append(line(key: "authCode", name: "Auth. code", value: code))
        }
        if let id = receipt.transactionID {
            lines.append(line(key: "txRef", name: "Tender", value: id.rawValue))
        }
        if let id = storedOfflineID {
            lines.append(line(key: "offlineID", name: "Stored offline", value: id.uuidString))
        }
        lines.append(filler)
        lines.append(line(key: "txtype", name: "Type", value: receipt.kindLabel))
        lines.append(
            line(
                key: "totalAmount", name: "TOTAL", value: Receipt.format(receipt.amount, receipt.currency),
                bold: true))
        lines.append(filler)
        lines.append(
            receipt.status == .approvedOffline
                ? line(key: "approved", name: "APPROVED OFFLINE", bold: true)
                : line(key: "approved", name: "APPROVED", bold: true))
        if copy == .merchant, receipt.signatureRequired {
            lines.append(line(key: "signatureTitle", name: "Cardholder signature"))
            lines.append(filler)
        }
        if copy == .customer {
            lines.append(filler)
            lines.append(line(key: "retain", name: "Keep this receipt"))
            lines.append(line(key: "thanks", name: "Thank you"))
        }
        return lines
    }

    /// An empty line, as Adyen separates the receipt's blocks.
    static let filler = OutputText(text: "key=filler", endOfLineFlag: true)

    /// One line: its `name` and `value` when it has them, always its `key`.
    static func line(key: String, name: String?, value: String? = nil, bold: Bool = false) -> OutputText {
        var fields: [KeyValueField] = []
        if let name, !name.isEmpty { fields.append(KeyValueField(name: "name", value: name)) }
        if let value { fields.append(KeyValueField(name: "value", value: value)) }
        fields.append(KeyValueField(name: "key", value: key))
        return OutputText(
            text: AdditionalResponse(fields: fields).text, characterStyle: bold ? "Bold" : nil,
            endOfLineFlag: true)
    }

    /// A card number with every digit but the last four starred, as Adyen's receipts print it.
    static func lastFour(_ pan: String) -> String {
        let digits = pan.count(where: { $0.isASCII && $0.isNumber })
        var seen = 0
        return String(
            pan.compactMap { character -> Character? in
                guard character.isASCII && character.isNumber else { return character == " " ? nil : "*" }
                seen += 1
                return seen > digits - 4 ? character : "*"
            })
    }

    static func stamp(_ date: Date, _ format: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
