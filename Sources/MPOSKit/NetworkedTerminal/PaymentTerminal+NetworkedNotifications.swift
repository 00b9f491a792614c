import Foundation
import MPOSCore
import TerminalAPI

// Networked terminals post event notifications to the sale system (a URL configured on the
// terminal); the app's endpoint hands each body over here, and it becomes a `TerminalEvent`.
extension PaymentTerminal {
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
    ///   that terminal (another POIID, another message, in clear when a key is set, or not
    ///   decrypting and authenticating under it).
    @discardableResult
    func receiveNetworkedTerminalNotification(_ body: Data) throws(MPOSError) -> TerminalEvent {
        guard let link = state.networked?.link else { throw MPOSError.readerNotConnected }
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
        emit(event)
        return event
    }
}
