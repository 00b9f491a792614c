import Foundation
import MPOSCore
import TerminalAPI

// Networked terminals: a terminal on the LAN runs the payment (its own card reader and
// acquirer); the SDK sends it Terminal API requests, journaled first, and settles a lost
// answer with TransactionStatus. No gateway login is needed for these operations.
extension PaymentTerminal {
    /// The link to the networked terminal payments go to, if that is the device.
    var networkedLink: NexoLink? { state.networked?.link }

    /// ``TerminalAPIAdapter/connect(_:)``'s work: the device becomes the networked terminal.
    @discardableResult
    func connectNetworkedTerminal(_ terminal: NetworkedTerminal) async throws(MPOSError)
        -> [RecoveredAttempt]
    {
        let hold = try gate.begin(.recovery)
        defer { gate.end(hold) }
        await disconnect()
        let device = NetworkedTerminalDevice(link: NexoLink(terminal), events: hub, clock: clock)
        state.useNetworkedTerminal(device)
        await recovery.paymentsGo(to: device)
        hub.emit(.readerConnection(connected: true, info: nil))
        return try await device.settleUnfinished(in: payments.journal)
    }
}
