import Foundation
import MPOSCore
import TerminalAPI

/// The networked terminal a `PaymentTerminal` drives, and the payment it runs there.
struct NetworkedSession: Sendable {
    let link: NexoLink
    /// The payment request in flight, which ``PaymentTerminal/cancel()`` aborts.
    var running: NetworkedAttempt?
}

// Networked terminals: a terminal on the LAN runs the payment (its own card reader and
// acquirer); the SDK sends it Terminal API requests, journaled first, and settles a lost
// answer with TransactionStatus. No gateway login is needed for these operations.
extension PaymentTerminal {
    /// Drives `terminal` instead of a ReaderLink reader: ``sale(_:)`` and
    /// ``refundUnreferenced(_:)`` become Terminal API payments, ``refund(transactionID:amount:)``
    /// and ``void(transactionID:)`` reversals, and ``cancel()`` an abort, all answered as
    /// `PaymentResult`s. A connected reader is disconnected; ``disconnect()`` or
    /// ``CardReaderLink/connect(transport:secret:)`` ends it. ``login()`` is not needed: the terminal
    /// has its own acquirer.
    ///
    /// Connecting first settles what the journal holds unfinished with this terminal (an
    /// answer lost by an earlier run), with one TransactionStatus request each.
    ///
    /// - Returns: one report per attempt found unfinished with this terminal (its POIID).
    /// - Throws: ``MPOSError/terminalBusy`` during an operation; ``MPOSError/journalFailed``.
    @discardableResult
    func connectNetworkedTerminal(_ terminal: NetworkedTerminal) async throws(MPOSError)
        -> [RecoveredAttempt]
    {
        let hold = try gate.begin(.recovery)
        defer { gate.end(hold) }
        await disconnect()
        state.useNetworkedTerminal(NetworkedSession(link: NexoLink(terminal)))
        emit(.readerConnection(connected: true, info: nil))
        return try await settleNetworkedAttempts()
    }


    // MARK: - Payments
}

extension NetworkedAttempt {
    /// Records a known outcome.
    mutating func finish(with result: PaymentResult) {
        state = .finished
        outcome = result.status
        transactionID = result.transactionID
        maskedPAN = result.maskedPAN
    }
}
