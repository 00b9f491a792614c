import GatewayAPI
import MPOSCore

extension Reports {
    /// One recorded transaction as the gateway holds it now: how a refund answered
    /// ``PaymentStatus/pending`` is followed to its outcome (`approved` or `declined`).
    ///
    /// ```swift
    /// let refund = try await terminal.refund(transactionID: sale)
    /// if refund.status == .pending, let id = refund.transactionID {
    ///     let later = try await terminal.reports.transaction(id)   // later.status: .approved
    /// }
    /// ```
    ///
    /// - Throws: ``MPOSError/notLoggedIn``, ``MPOSError/notFound`` for an id the merchant does
    ///   not have, ``MPOSError/gatewayUnreachable``; the gateway's other refusals as an `MPOSError`.
    public func transaction(_ id: TransactionID) async throws(MPOSError) -> Transaction {
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        let response = try await client.call(GatewayRoutes.transaction, id: id.rawValue)
        return try client.decode(response, as: Transaction.self)
    }
}
