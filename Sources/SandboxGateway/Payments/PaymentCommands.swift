import EMV
import Foundation
import GatewayAPI
import MPOSCore

/// A card-present EMV payment as the routes hand it to ``PaymentService``: the API request
/// it came as, with its hex fields checked and decoded once.
public struct CardPaymentCommand: Sendable {
    /// The request as the client sent it; its fields are the payment's.
    public let request: AuthorizeCardRequest
    /// BER-TLV EMV data, decoded from ``GatewayAPI/AuthorizeCardRequest/emvData`` (empty when absent).
    public let emvData: [UInt8]
    /// The DUKPT-sealed card data, decoded.
    public let encryptedCardData: [UInt8]
    /// The KSN, decoded.
    public let ksn: [UInt8]
    /// The basket as receipt lines, stored with the transaction.
    public let basketLines: [ReceiptLine]

    /// What the gateway records: `sale`, `authorization`, `preAuthorization` or `refund`.
    public var kind: TransactionKind { request.kind.transactionKind }

    /// The command for `request`.
    ///
    /// - Throws: 4001 when a hex field is missing or not even-length hex, the masked PAN
    ///   shows more than first 6 / last 4, the basket or instalments break their rules, or a
    ///   reader field is not 1 to 64 printable characters.
    public init(_ request: AuthorizeCardRequest) throws(GatewayError) {
        func bytes(_ text: String?, _ field: String) throws(GatewayError) -> [UInt8] {
            try hexField(text, field, requiredFor: "a card payment")
        }
        if let masked = request.maskedPAN, !GatewayValidation.isMaskedPAN(masked) {
            throw GatewayError.invalid("maskedPAN must show at most the first 6 and last 4 digits.")
        }
        let payment = request.parameters
        try validateOrderDetails(
            basket: payment.basket, installments: payment.installments, amount: payment.amount)
        if let reader = request.reader { try TerminalRegistry.validate(reader) }
        self.request = request
        self.emvData = request.emvData == nil ? [] : try bytes(request.emvData, "emvData")
        self.encryptedCardData = try bytes(request.encryptedCardData, "encryptedCardData")
        self.ksn = try bytes(request.ksn, "ksn")
        self.basketLines = payment.basket.map(ReceiptLine.lines(for:)) ?? []
    }
}

/// A cash payment or cash refund as the routes hand it to ``PaymentService``: the API
/// request with its basket checked and turned into receipt lines.
public struct CashCommand: Sendable {
    /// The request as the client sent it; its fields are the payment's.
    public let request: CashPaymentRequest
    /// The basket as receipt lines, stored with the transaction.
    public let basketLines: [ReceiptLine]

    /// The command for `request`.
    ///
    /// - Throws: 4001 when the basket breaks its rules.
    public init(_ request: CashPaymentRequest) throws(GatewayError) {
        try validateOrderDetails(basket: request.basket, installments: nil, amount: request.amount)
        self.request = request
        self.basketLines = request.basket.map(ReceiptLine.lines(for:)) ?? []
    }
}

/// A SEPA direct debit authorised with the customer's card, as the routes hand it to
/// ``PaymentService``: the API request with its hex fields checked and decoded once. The
/// card identifies the bank account and the mandate is signed on the terminal.
public struct SEPACommand: Sendable {
    /// The request as the client sent it; its fields are the payment's.
    public let request: SEPAPaymentRequest
    /// BER-TLV EMV data, decoded (empty when absent).
    public let emvData: [UInt8]
    /// The DUKPT-sealed card data, decoded.
    public let encryptedCardData: [UInt8]
    /// The KSN, decoded.
    public let ksn: [UInt8]
    /// The basket as receipt lines, stored with the transaction.
    public let basketLines: [ReceiptLine]

    /// The command for `request`.
    ///
    /// - Throws: 4001 when a hex field is missing or not even-length hex, the basket breaks
    ///   its rules, or a reader field is not 1 to 64 printable characters.
    public init(_ request: SEPAPaymentRequest) throws(GatewayError) {
        func bytes(_ text: String?, _ field: String) throws(GatewayError) -> [UInt8] {
            try hexField(text, field, requiredFor: "a SEPA payment")
        }
        try validateOrderDetails(basket: request.basket, installments: nil, amount: request.amount)
        if let reader = request.reader { try TerminalRegistry.validate(reader) }
        self.request = request
        self.emvData = request.emvData == nil ? [] : try bytes(request.emvData, "emvData")
        self.encryptedCardData = try bytes(request.encryptedCardData, "encryptedCardData")
        self.ksn = try bytes(request.ksn, "ksn")
        self.basketLines = request.basket.map(ReceiptLine.lines(for:)) ?? []
    }
}

/// The bytes of a hex request field.
/// - Throws: 4001 when it is absent or not even-length hex.
private func hexField(_ text: String?, _ field: String, requiredFor payment: String) throws(GatewayError)
    -> [UInt8]
{
    guard let text else { throw GatewayError.invalid("\(field) is required for \(payment).") }
    // Any decoding failure is the 4001 below, which names the field.
    guard GatewayValidation.isHex(text), let value = try? Hex.decode(text) else {
        throw GatewayError.invalid("\(field) must be even-length hex.")
    }
    return value
}
