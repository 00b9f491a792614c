import Foundation
import MPOSCore
import TerminalAPI

/// The Terminal API (nexo, in Adyen's dialect) over the terminal's own payment flow, reached
/// as ``PaymentTerminal/terminalAPI``: one JSON request in, one JSON response out, as Adyen's
/// SDK takes them (`Payment.Request(data:)`).
///
/// ```swift
/// let response = try await terminal.terminalAPI.perform(requestJSON)
/// let payment = try NexoCoder.decodeResponse(response).paymentResponse
/// ```
///
/// It owns what Terminal API requests remember between requests (`NexoSession`: the answers
/// given, the payment running and its aborts, the installation id) and runs each request
/// through the terminal's own payments, holding the terminal's `OperationGate` meanwhile.
public actor TerminalAPIAdapter {
    /// The terminal whose payments the requests run as (held weakly: the terminal holds this).
    private let facade: TerminalSlot
    let client: GatewayClient
    let journal: PaymentJournal
    let gate: OperationGate
    /// What requests remember between requests.
    var nexo = NexoSession()

    init(client: GatewayClient, journal: PaymentJournal, gate: OperationGate, facade: TerminalSlot) {
        self.facade = facade
        self.client = client
        self.journal = journal
        self.gate = gate
    }

    /// The terminal, while it lives.
    var terminal: PaymentTerminal {
        get throws(MPOSError) {
            guard let terminal = facade.get() else {
                throw MPOSError.readerNotConnected.withMessage("The terminal this Terminal API adapter belonged to is gone.")
            }
            return terminal
        }
    }

    /// Drives a networked Terminal API terminal on the LAN instead of a card reader (the
    /// sale system's side): ``PaymentTerminal/sale(_:)`` and
    /// ``PaymentTerminal/refundUnreferenced(_:)`` become Terminal API payments,
    /// ``PaymentTerminal/refund(transactionID:amount:)`` and ``PaymentTerminal/void(transactionID:)``
    /// reversals, and ``PaymentTerminal/cancel()`` an abort. A connected reader is
    /// disconnected; ``PaymentTerminal/disconnect()`` or connecting a reader ends it. No gateway
    /// login is needed: the terminal has its own acquirer. Connecting first settles what the
    /// journal holds unfinished with this terminal, one TransactionStatus request each.
    ///
    /// - Returns: one report per attempt found unfinished with this terminal (its POIID).
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/journalFailed``.
    @discardableResult
    public func connect(_ networkedTerminal: NetworkedTerminal) async throws(MPOSError) -> [RecoveredAttempt]
    {
        try await terminal.connectNetworkedTerminal(networkedTerminal)
    }

    /// Performs one Terminal API request and returns its response.
    ///
    /// - Payment (`PaymentType` Normal or absent → ``PaymentTerminal/sale(_:)``, Refund →
    ///   ``PaymentTerminal/refundUnreferenced(_:)``): the amount is `AmountsReq.RequestedAmount`
    ///   in its currency, `SaleTransactionID.TransactionID` becomes the payment's `externalID`,
    ///   and the idempotency key is derived from the header's `SaleID` and `ServiceID`: a
    ///   repeated request is answered with the first one's response, never charged again.
    /// - Reversal of an earlier payment's `POITransactionID`: a void, or a refund when the
    ///   gateway no longer voids it or a part is reversed.
    /// - TransactionStatus for an earlier payment's `MessageReference`: its response as
    ///   `RepeatedMessageResponse`, `InProgress` while it runs, `NotFound` when never seen.
    /// - Abort of the running payment: ``PaymentTerminal/cancel()``; the result is empty, and
    ///   the payment answers `Aborted`.
    /// - Another payment while one runs: `Busy`. A request for another POIID than
    ///   ``installationID()``: `NotAllowed`. A readable header with a malformed body: that
    ///   service's response with `MessageFormat` naming the field. Another service: a `Reject`
    ///   event notification, as Adyen's terminals send.
    ///
    /// - Throws: ``MPOSError/terminalAPIMessageInvalid`` when the bytes are not a Terminal API
    ///   request with a readable `MessageHeader`, or an encrypted one (use
    ///   ``perform(_:crypto:)``).
    public func perform(_ request: Data) async throws(MPOSError) -> Data {
        try await perform(terminalAPIRequest: request)
    }

    /// Performs an encrypted Terminal API request (`NexoBlob` + `SecurityTrailer`) and answers
    /// encrypted under `crypto`'s key, as ``perform(_:)`` answers in clear. A clear request, or
    /// one that does not decrypt, is refused with NotAllowed.
    ///
    /// - Throws: what ``perform(_:)`` throws.
    public func perform(_ request: Data, crypto: NexoCrypto) async throws(MPOSError) -> Data {
        try await perform(terminalAPIRequest: request, crypto: crypto)
    }

    /// The terminal's POIID in the Terminal API: the id set with ``setInstallationID(_:)``,
    /// else this installation's own id (`MPOSKit-` and 12 hex digits), created once with the
    /// journal and kept in it: the same whichever reader is connected, or none, and across
    /// restarts.
    public func installationID() -> String {
        if let installationID = nexo.installationID { return installationID }
        if let stored = nexo.journalInstallationID { return stored }
        // The journal made its id when it was created; a journal that cannot be read has
        // bigger troubles, which its next write reports.
        let stored = (try? journal.installationID()) ?? "MPOSKit"
        nexo.journalInstallationID = stored
        return stored
    }

    /// Sets the POIID that Terminal API requests must name (`V400m-123456789` in Adyen's
    /// examples); nil returns to this installation's own id.
    public func setInstallationID(_ id: String?) { nexo.installationID = id }

    /// Lets Terminal API sales be stored and forwarded when the gateway cannot be reached, as
    /// a merchant turns on Store and Forward for Adyen's SDK; off by default.
    ///
    /// When on, a sale (`PaymentType` Normal) runs as ``PaymentTerminal/sale(_:)`` with
    /// `offlineAllowed`: if the gateway is out of reach, the card is chip or contactless and the
    /// merchant's offline limits (``OfflinePolicy``) allow it, the card decides offline and an
    /// approval is stored, to be forwarded once by ``PaymentTerminal/offline``. The answer is
    /// then `Success` with `PaymentResult.OnlineFlag` false, the stored id as
    /// `POITransactionID.TransactionID`, `AdditionalResponse` `message=APPROVED_OFFLINE`,
    /// `offline=true` and `offlineID`, and receipts that say so. A sale the limits refuse answers `Failure`
    /// with `UnreachableHost` and the limit's message; refunds never go offline.
    public func setStoreAndForward(_ enabled: Bool) { nexo.storeAndForward = enabled }

    /// Takes an event notification the connected networked terminal posted to the sale system
    /// (`{"SaleToPOIRequest": {… "EventNotification": …}}`, encrypted under the terminal's key
    /// when it has one) and emits it as ``TerminalEvent/terminalNotification(event:details:)``.
    ///
    /// ```swift
    /// // In the app's HTTP handler for the URL configured on the terminal:
    /// try await terminal.terminalAPI.receiveNotification(requestBody)
    /// ```
    ///
    /// - Returns: the event emitted.
    /// - Throws: ``MPOSError/readerNotConnected`` without a networked terminal;
    ///   ``MPOSError/terminalAPIMessageInvalid`` for bytes that are not an event notification of
    ///   that terminal.
    @discardableResult
    public func receiveNotification(_ body: Data) async throws(MPOSError) -> TerminalEvent {
        let terminal = try terminal
        guard let link = await terminal.networkedLink else { throw MPOSError.readerNotConnected }
        var message: SaleToPOIRequest
        do { message = try NexoCoder.decodeRequest(body) } catch { throw MPOSError.terminalAPI(error) }
        if let crypto = link.crypto {
            guard message.nexoBlob != nil else {
                throw MPOSError.terminalAPIMessageInvalid.withMessage(
                    "The notification came in clear; the terminal's messages must be encrypted under its key."
                )
            }
            do { message = try crypto.decrypt(message) } catch { throw MPOSError.terminalAPI(error) }
        }
        guard message.messageHeader.poiID == link.terminal.poiID else {
            throw MPOSError.terminalAPIMessageInvalid.withMessage(
                "The notification is from POIID \(message.messageHeader.poiID), not the connected terminal "
                    + "\(link.terminal.poiID).")
        }
        guard let notification = message.eventNotification else {
            throw MPOSError.terminalAPIMessageInvalid.withMessage(
                "The message is a \(message.messageHeader.messageCategory.rawValue) request, not an event notification."
            )
        }
        let event = TerminalEvent.terminalNotification(
            event: notification.eventToNotify.rawValue, details: notification.eventDetails)
        terminal.hub.emit(event)
        return event
    }
}
