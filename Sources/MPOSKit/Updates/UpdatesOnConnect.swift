/// What connecting a reader installs before it returns, reached as
/// ``TerminalUpdates/setUpdatesOnConnect(_:)``.
///
/// Connecting through a transport factory (``CardReaderLink/connect(secret:reconnect:open:)`` and
/// the discovered-reader form) applies it: an update restarts the reader, and the terminal
/// reaches it again through the factory. Progress comes as ``TerminalEvent/readerUpdate(_:)``
/// events (the ECP seed's `ECPDeviceConfigStatusEvent` and `ECPDeviceConfigProgressEvent`).
public enum UpdatesOnConnect: String, Sendable, Hashable, CaseIterable {
    /// Connecting installs nothing (the default): updates wait for
    /// ``TerminalUpdates/downloadAndApply(includeFirmware:window:)``.
    case none
    /// Connecting installs the pending configuration images, as the Accept seed allows; a
    /// failure leaves the reader connected, and payments go on until a deadline passes.
    case configuration
    /// Connecting installs every required image, firmware and configuration (those the
    /// gateway published with a deadline), and does not finish until they are installed, as
    /// the ECP seed's connect: when one fails, the reader is disconnected and connect throws
    /// ``MPOSError/updateRequired`` with the update's result. Images without a deadline wait.
    case required
}
