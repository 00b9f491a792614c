import MPOSCore

extension PaymentResult: CustomStringConvertible {
    /// One line for a log or a console: how it ended, what it was, the amounts, the gateway's
    /// transaction and the masked card, then the error if any. Never card data in clear:
    /// the card is shown as ``maskedPAN`` (first 6 / last 4).
    /// `"approved sale 12.34 EUR (transaction txn_1, card visa 411111******1111)"`.
    public var description: String {
        var text = "\(status.rawValue) \(kind.rawValue) \(Self.money(requestedAmount, currency))"
        if status == .approved, approvedAmount != requestedAmount {
            text += ", \(Self.money(approvedAmount, currency)) approved"
        }
        var details: [String] = []
        if let transactionID { details.append("transaction \(transactionID)") }
        if let maskedPAN { details.append("card " + [scheme, maskedPAN].compactMap { $0 }.joined(separator: " ")) }
        if reversed { details.append("reversed") }
        if recovered { details.append("recovered") }
        if let error { details.append("error \(error.code): \(error.message)") }
        return details.isEmpty ? text : "\(text) (\(details.joined(separator: ", ")))"
    }

    private static func money(_ amount: Int64, _ currency: Currency) -> String {
        // An amount Money cannot format is still described, in minor units.
        (try? Money(amount: amount, currency: currency))?.description ?? "\(amount) minor units of \(currency.code)"
    }
}
