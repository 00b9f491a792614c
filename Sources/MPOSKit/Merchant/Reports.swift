import GatewayAPI
import MPOSCore

/// The merchant's transactions and turnover, as the gateway records them; reached as
/// ``PaymentTerminal/reports``.
///
/// ```swift
/// let page = try await terminal.reports.searchTransactions()
/// ```
public struct Reports: Sendable {
    let client: GatewayClient

    /// One page of the merchant's transactions.
    ///
    /// - Throws: ``MPOSError/gatewayUnreachable``; the gateway's refusal (a lapsed
    ///   session, a bad request) as an `MPOSError`.
    public func searchTransactions(_ request: TransactionSearchRequest = TransactionSearchRequest())
        async throws(MPOSError) -> TransactionPage
    {
        try await client.query(GatewayRoutes.searchTransactions, body: request)
    }

    /// Turnover statistics.
    ///
    /// - Throws: as ``searchTransactions(_:)``.
    public func statistics(_ request: StatisticsRequest) async throws(MPOSError) -> StatisticsResponse {
        try await client.query(GatewayRoutes.statistics, body: request)
    }
}
