import Foundation
import Logging
import Synchronization

/// The terminal's developer log: off until the app hands it a `Logger`
/// (``PaymentTerminal/setDeveloperLogging(_:)``). When on, every gateway request and response
/// goes to it at `debug` and every payment's outcome at `info`, with credentials and card data
/// redacted first (``LogRedaction``).
final class DeveloperLog: Sendable {
    private let logger = Mutex<Logger?>(nil)

    /// The logger, or nil when the log is off.
    var current: Logger? { logger.withLock { $0 } }

    /// Turns the log on with `logger`, or off with nil.
    func set(_ logger: Logger?) { self.logger.withLock { $0 = logger } }

    /// One gateway request, redacted.
    func request(_ request: GatewayHTTPRequest, on logger: Logger) {
        logger.debug(
            "gateway request",
            metadata: [
                "method": "\(request.method)", "path": "\(request.path)",
                "headers": "\(LogRedaction.headers(request.headers).sorted { $0.key < $1.key })",
                "body": "\(LogRedaction.body(request.body))",
            ])
    }

    /// The gateway's answer to `request`, or why none came, redacted.
    func response(
        _ outcome: Result<GatewayHTTPResponse, GatewayTransportError>, to request: GatewayHTTPRequest,
        on logger: Logger
    ) {
        switch outcome {
        case .success(let response):
            logger.debug(
                "gateway response",
                metadata: [
                    "method": "\(request.method)", "path": "\(request.path)", "status": "\(response.status)",
                    "body": "\(LogRedaction.body(response.body))",
                ])
        case .failure(let error):
            logger.debug(
                "gateway unreachable",
                metadata: [
                    "method": "\(request.method)", "path": "\(request.path)", "reason": "\(error.reason)",
                ])
        }
    }

    /// The record of one payment's outcome: what a developer needs to find it again (ids,
    /// amount, outcome, masked card), nothing more.
    func record(_ result: PaymentResult) {
        guard let logger = current else { return }
        var metadata: Logger.Metadata = [
            "kind": "\(result.kind.rawValue)", "status": "\(result.status.rawValue)",
            "amount": "\(result.requestedAmount)", "approvedAmount": "\(result.approvedAmount)",
            "currency": "\(result.currency.code)", "idempotencyKey": "\(result.idempotencyKey.rawValue)",
        ]
        if let id = result.transactionID { metadata["transactionID"] = "\(id.rawValue)" }
        if let id = result.offlineID { metadata["offlineID"] = "\(id.uuidString)" }
        if let pan = result.maskedPAN { metadata["card"] = "\(PaymentReceipt.masked(pan))" }
        if let scheme = result.scheme { metadata["scheme"] = "\(scheme)" }
        if let mode = result.entryMode { metadata["entryMode"] = "\(mode.rawValue)" }
        if let code = result.responseCode { metadata["responseCode"] = "\(code)" }
        if let error = result.error { metadata["error"] = "\(error.code)" }
        logger.info("payment", metadata: metadata)
    }
}
