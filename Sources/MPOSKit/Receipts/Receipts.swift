import Foundation
import GatewayAPI
import MPOSCore

/// Receipts, reached as ``PaymentTerminal/receipts``: of a payment just run, of a recorded
/// transaction, and sent by e-mail or SMS.
public struct Receipts: Sendable {
    let client: GatewayClient

    /// The receipt of `result`, with the merchant's address and id from the session.
    ///
    /// ```swift
    /// let receipt = await terminal.receipts.receipt(for: result)
    /// printer.print(receipt.text(.customer))
    /// ```
    public func receipt(for result: PaymentResult) async -> PaymentReceipt {
        PaymentReceipt(result, merchant: await client.merchant)
    }

    /// The gateway's receipt data for a recorded transaction.
    ///
    /// - Throws: ``MPOSError/notFound`` for an unknown transaction, ``MPOSError/notLoggedIn``,
    ///   ``MPOSError/gatewayUnauthorized``, ``MPOSError/gatewayUnreachable``.
    public func data(transactionID: TransactionID) async throws(MPOSError) -> ReceiptData {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(GatewayRoutes.receipt, id: transactionID.rawValue)
        return try client.decode(response, as: ReceiptData.self)
    }

    /// The receipt of a recorded transaction, from the gateway's receipt data and the
    /// transaction (for its batch and response code), ready to render.
    ///
    /// - Throws: as ``data(transactionID:)``.
    public func receipt(transactionID: TransactionID) async throws(MPOSError) -> PaymentReceipt {
        let data = try await self.data(transactionID: transactionID)
        let response = try await client.call(GatewayRoutes.transaction, id: transactionID.rawValue)
        let transaction = try client.decode(response, as: Transaction.self)
        return PaymentReceipt(data, transaction: transaction)
    }

    /// Sends a recorded transaction's receipt to the customer by e-mail or text message
    /// (the sandbox writes it to its outbox).
    ///
    /// ```swift
    /// try await terminal.receipts.send(transactionID: id, to: .email("anna@example.com"))
    /// ```
    ///
    /// - Throws: ``MPOSError/invalidEmailAddress`` or ``MPOSError/invalidPhoneNumber`` when
    ///   the gateway refuses the address, ``MPOSError/notFound`` for an unknown transaction,
    ///   ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnreachable``.
    public func send(transactionID: TransactionID, to recipient: ReceiptRecipient)
        async throws(MPOSError)
    {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(
            GatewayRoutes.sendReceipt, id: transactionID.rawValue,
            body: SendReceiptRequest(channel: recipient.channel, address: recipient.address))
        try client.check(response) { status, body in
            guard status == 400, body?.code == GatewayErrorCode.invalidValue else { return nil }
            let error =
                recipient.channel == .email ? MPOSError.invalidEmailAddress : MPOSError.invalidPhoneNumber
            return error.withMessage(body?.message ?? error.message)
        }
    }

    /// Stores the cardholder's pad signature with an approved transaction, as a PNG (the sale
    /// does it itself; this sends it again after a failure).
    ///
    /// - Throws: ``MPOSError/notFound`` for an unknown transaction, ``MPOSError/gatewayRefused``
    ///   for one that is not approved or an image over the gateway's limit,
    ///   ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnreachable``.
    public func storeSignature(_ signature: CardholderSignature, transactionID: TransactionID)
        async throws(MPOSError)
    {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(
            GatewayRoutes.uploadSignature, id: transactionID.rawValue,
            body: SignatureImage(png: Data(signature.png())))
        try client.check(response)
    }

    /// The signature image the gateway keeps with a transaction, as PNG bytes.
    ///
    /// - Throws: ``MPOSError/notFound`` for an unknown transaction or one without a signature,
    ///   ``MPOSError/notLoggedIn``, ``MPOSError/gatewayUnreachable``.
    public func signature(transactionID: TransactionID) async throws(MPOSError) -> Data {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(GatewayRoutes.signature, id: transactionID.rawValue)
        return try client.decode(response, as: SignatureImage.self).png
    }
}
