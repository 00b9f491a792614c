import GatewayAPI
import MPOSCore

/// Where a receipt goes: an e-mail address or a phone number for a text message, checked
/// before anything is sent.
///
/// ```swift
/// let recipient = try ReceiptRecipient.email("anna@example.com")
/// try await terminal.receipts.send(transactionID: id, to: recipient)
/// ```
public struct ReceiptRecipient: Sendable, Hashable {
    /// E-mail or SMS.
    public let channel: MessageChannel
    /// The address or number, without surrounding spaces.
    public let address: String

    /// An e-mail address: one `@`, a non-empty local part, a domain with a dot inside, no
    /// spaces, at most 254 characters.
    ///
    /// - Throws: ``MPOSError/invalidEmailAddress`` (the message never repeats the input).
    public static func email(_ address: String) throws(MPOSError) -> ReceiptRecipient {
        let text = address.trimmingSpaces
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !text.contains(where: \.isWhitespace)
        else { throw MPOSError.invalidEmailAddress }
        return ReceiptRecipient(channel: .email, address: text)
    }

    /// A phone number: 6 to 15 digits, optionally with `+`, spaces, `-` and parentheses,
    /// such as `"+49 151 1234 5678"`.
    ///
    /// - Throws: ``MPOSError/invalidPhoneNumber`` (the message never repeats the input).
    public static func phone(_ number: String) throws(MPOSError) -> ReceiptRecipient {
        let text = number.trimmingSpaces
        let digits = text.filter { $0.isASCII && $0.isNumber }
        guard (6...15).contains(digits.count),
            text.allSatisfy({ ($0.isASCII && $0.isNumber) || "+ -()".contains($0) })
        else { throw MPOSError.invalidPhoneNumber }
        return ReceiptRecipient(channel: .sms, address: text)
    }

    private init(channel: MessageChannel, address: String) {
        self.channel = channel
        self.address = address
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
