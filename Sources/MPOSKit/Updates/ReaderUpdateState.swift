import Foundation
import MPOSCore

/// What the gateway's terminal management last said about a reader, kept for that reader
/// only: the terminal learns it at login, at connect and after each install, forgets it at
/// disconnect and reset, and a card payment judges the deadline against the device's date at
/// that moment rather than the gateway's verdict of the past.
struct ReaderUpdateState: Sendable, Hashable {
    /// The serial number of the reader the status is about.
    private(set) var reader: String?
    private(set) var status: TerminalUpdateStatus?

    /// The gateway answered for the reader with serial number `serial`.
    mutating func learned(_ status: TerminalUpdateStatus, reader serial: String) {
        reader = serial
        self.status = status
    }

    /// Nothing is known any more (the reader went away, or the session changed).
    mutating func forget() {
        reader = nil
        status = nil
    }

    /// The status of the reader with serial number `serial`; nil when it was never asked for,
    /// or when what is known is another reader's.
    func status(of serial: String?) -> TerminalUpdateStatus? {
        guard let serial, serial == reader else { return nil }
        return status
    }

    /// Why a card payment on the reader `serial` must wait for its updates at `now`, or nil:
    /// ``MPOSError/invalidReaderFirmwareVersion`` when a firmware image is among the overdue
    /// ones (the Adyen seed's `INVALID_NYC1_FIRMWARE_VERSION`), else ``MPOSError/updateRequired``.
    func refusal(reader serial: String?, at now: Date) -> MPOSError? {
        guard let status = status(of: serial), status.isBlocked(at: now), let deadline = status.updateDeadline
        else {
            return nil
        }
        if status.pending.contains(where: { $0.kind == .firmware && $0.deadline != nil }) {
            return MPOSError.invalidReaderFirmwareVersion
        }
        return MPOSError.updateRequired.withMessage(
            "The reader's update deadline (\(deadline.formatted(.iso8601))) has passed: install its updates "
                + "(downloadAndApplyUpdate) to take payments.")
    }
}
