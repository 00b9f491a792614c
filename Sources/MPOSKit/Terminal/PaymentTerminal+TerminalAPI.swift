import Foundation
import MPOSCore
import TerminalAPI

// The Terminal API, both ways: requests an app performs as if the terminal were one (run
// through this terminal's payments, under the rules of the `TerminalAPIAdapter` part), and a
// networked terminal on the LAN that payments go to instead of a card reader.
extension PaymentTerminal {
    /// Performs one Terminal API request as this terminal and returns its response.
    ///
    /// - Payment (`PaymentType` Normal or absent → ``sale(_:)``, Refund →
    ///   ``refundUnreferenced(_:)``): the amount is `AmountsReq.RequestedAmount` in its
    ///   currency, `SaleTransactionID.TransactionID` becomes the payment's `externalID`, and the
    ///   idempotency key is derived from the header's `SaleID` and `ServiceID`: a repeated
    ///   request is answered with the first one's response, never charged again.
    /// - Reversal of an earlier payment's `POITransactionID`: a void, or a refund when the
    ///   gateway no longer voids it or a part is reversed.
    /// - TransactionStatus for an earlier payment's `MessageReference`: its response as
    ///   `RepeatedMessageResponse`, `InProgress` while it runs, `NotFound` when never seen.
    /// - Abort of the running payment: ``cancel()``; the result is empty, and the payment
    ///   answers `Aborted`.
    /// - Another payment while one runs: `Busy`. A request for another POIID than
    ///   ``TerminalAPIAdapter/installationID()``: `NotAllowed`. A readable header with a
    ///   malformed body: that service's response with `MessageFormat` naming the field. Another
    ///   service: a `Reject` event notification, as Adyen's terminals send.
    ///
    /// - Throws: ``MPOSError/terminalAPIMessageInvalid`` when the bytes are not a Terminal API
    ///   request with a readable `MessageHeader`, or an encrypted one (use
    ///   ``perform(terminalAPIRequest:crypto:)``).
    public func perform(terminalAPIRequest request: Data) async throws(MPOSError) -> Data {
        try await terminalAPI.perform(terminalAPIRequest: request, payments: self)
    }

    /// Performs an encrypted Terminal API request (`NexoBlob` + `SecurityTrailer`) and answers
    /// encrypted under `crypto`'s key, as ``perform(terminalAPIRequest:)`` answers in clear. A
    /// clear request, or one that does not decrypt, is refused with NotAllowed.
    ///
    /// - Throws: what ``perform(terminalAPIRequest:)`` throws.
    public func perform(terminalAPIRequest request: Data, crypto: NexoCrypto) async throws(MPOSError) -> Data {
        try await terminalAPI.perform(terminalAPIRequest: request, crypto: crypto, payments: self)
    }

    /// Drives a networked Terminal API terminal on the LAN instead of a card reader (the
    /// sale system's side): ``sale(_:)`` and ``refundUnreferenced(_:)`` become Terminal API
    /// payments, ``refund(transactionID:amount:)`` and ``void(transactionID:)`` reversals,
    /// and ``cancel()`` an abort. A connected reader is disconnected; ``disconnect()`` or
    /// connecting a reader ends it. No gateway login is needed: the terminal has its own
    /// acquirer. Connecting first settles what the journal holds unfinished with this
    /// terminal, one TransactionStatus request each.
    ///
    /// - Returns: one report per attempt found unfinished with this terminal (its POIID).
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/journalFailed``.
    @discardableResult
    public func connect(_ networkedTerminal: NetworkedTerminal) async throws(MPOSError) -> [RecoveredAttempt] {
        let hold = try gate.begin(.recovery)
        defer { gate.end(hold) }
        await disconnect()
        let device = NetworkedTerminalDevice(link: NexoLink(networkedTerminal), events: hub, clock: clock)
        state.useNetworkedTerminal(device)
        await recovery.paymentsGo(to: device)
        await terminalAPI.networkedTerminalChanged(to: device.link)
        hub.emit(.readerConnection(connected: true, info: nil))
        return try await device.settleUnfinished(in: payments.journal)
    }
}

/// The payments a Terminal API request runs, which the terminal hands the adapter for each
/// request it performs.
protocol TerminalAPIPayments: Sendable {
    func runCard(
        _ parameters: PaymentParameters, kind: CardOperation, mandateReference: String?, key: IdempotencyKey?
    ) async throws(MPOSError) -> PaymentResult
    func void(transactionID: TransactionID) async throws(MPOSError) -> PaymentResult
    func refund(transactionID: TransactionID, amount: Int64?) async throws(MPOSError) -> PaymentResult
    func cancel() async throws(MPOSError) -> Bool
}

extension PaymentTerminal: TerminalAPIPayments {}
