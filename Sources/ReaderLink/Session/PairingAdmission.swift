/// Whether a reader takes an SDK whose pairing proof just verified. A reader serves one SDK
/// at a time: while another holds it, a new one is refused before the session opens.
///
/// ```swift
/// let session = try await ReaderDeviceSession.accept(transport: link, secret: secret) {
///     holder.map { .inUse(by: $0) } ?? .admit
/// }
/// ```
public enum PairingAdmission: Sendable, Hashable {
    /// Open the session.
    case admit
    /// Refuse: another SDK holds the reader. `holder` names it (its "HOST:PORT", say); the
    /// SDK receives an error frame with status `0004` and reason `readerInUse`, and the reader
    /// closes the link.
    case inUse(by: String)
}
