import Foundation
import MPOSCore
import TerminalAPI

/// The Terminal API session (nexo, in Adyen's dialect), reached as
/// ``PaymentTerminal/terminalAPI``: what Terminal API requests remember between requests
/// (`NexoSession`: the answers given, the payment running and its aborts, the POIID), how a
/// request is read and answered, and the notifications a networked terminal posts.
///
/// ```swift
/// let response = try await terminal.perform(terminalAPIRequest: requestJSON)
/// let payment = try NexoCoder.decodeResponse(response).paymentResponse
/// ```
///
/// The terminal runs each request (``PaymentTerminal/perform(terminalAPIRequest:)``): this
/// part reads it, applies the session's rules (a repeat answered, `Busy`, `NotAllowed`, an
/// abort counted), runs what it asks through the payments the terminal hands it for that
/// request, holding the terminal's `OperationGate` meanwhile, and encodes the answer.
public actor TerminalAPIAdapter {
    let client: GatewayClient
    let journal: PaymentJournal
    let gate: OperationGate
    let events: TerminalEvents
    /// What requests remember between requests.
    var nexo = NexoSession()
    /// The networked terminal payments go to, whose notifications this part takes in; the
    /// terminal tells it (``networkedTerminalChanged(to:)``).
    private var networkedLink: NexoLink?

    init(client: GatewayClient, journal: PaymentJournal, gate: OperationGate, events: TerminalEvents) {
        self.client = client
        self.journal = journal
        self.gate = gate
        self.events = events
    }

    /// The terminal connected a networked terminal (`link`), or went back to card readers (nil).
    func networkedTerminalChanged(to link: NexoLink?) { networkedLink = link }

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
        guard let link = networkedLink else { throw MPOSError.readerNotConnected }
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
        events.emit(event)
        return event
    }
}
