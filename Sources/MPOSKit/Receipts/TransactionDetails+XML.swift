import Foundation

extension TransactionDetails {
    /// The present fields in the seed's order, keyed by its names (amounts in minor units
    /// without a decimal point, as the seed writes them).
    public var fields: [(key: String, value: String)] {
        var fields: [(String, String?)] = [
            ("StatusMessage", statusMessage),
            ("TransactionType", operation.rawValue),
            ("FinancialStatus", outcome.rawValue),
            ("RequestedAmount", String(requestedAmount)),
            ("GratuityAmount", gratuityAmount.map(String.init)),
            ("GratuityPercentage", gratuityBasisPoints.map(Self.percent)),
            ("TotalAmount", String(totalAmount)),
            ("Currency", currency.code),
            ("TransactionID", transactionID),
            ("EFTTransactionID", eftTransactionID),
            ("OriginalEFTTransactionID", originalEFTTransactionID),
            ("EFTTimestamp", Self.timestamp(eftTimestamp)),
            ("AuthorisationCode", authorisationCode),
            ("CVM", verification.rawValue),
            ("CardEntryType", entryType.rawValue),
            ("CardSchemeName", cardSchemeName),
            ("CardTypeId", cardTypeID),
            ("SerialNumber", reader?.serialNumber),
            ("BatteryStatus", reader.map { "\($0.battery.percentage)%" }),
            ("BatterymV", reader.flatMap { $0.battery.millivolts > 0 ? String($0.battery.millivolts) : nil }),
            ("BatteryCharging", reader.map { String($0.battery.isCharging) }),
            ("ExternalPower", reader.map { String($0.battery.hasExternalPower) }),
            ("ApplicationName", reader?.applicationName),
            ("ApplicationVersion", reader?.applicationVersion),
            ("ErrorMessage", errorMessage),
        ]
        if recoveredTransaction { fields.append(("RecoveredTransaction", "true")) }
        return fields.compactMap { key, value in value.map { (key: key, value: $0) } }
    }

    /// The fields as the seed's dictionary.
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The fields as the seed's `FinancialTransactionResponse` XML, one element a line, text
    /// escaped.
    public var xml: String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<FinancialTransactionResponse>"]
        // The receipt's HTML escaping is XML's too (`'` as the numeric `&#39;`).
        for (key, value) in fields { lines.append("  <\(key)>\(PaymentReceipt.escapeHTML(value))</\(key)>") }
        lines.append("</FinancialTransactionResponse>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1250` as `12.50`.
    static func percent(_ basisPoints: Int64) -> String {
        let fraction = basisPoints % 100
        return "\(basisPoints / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `YYYYMMDDHHmmSS` in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year ?? 0)\(two(c.month))\(two(c.day))\(two(c.hour))\(two(c.minute))\(two(c.second))"
    }
}
