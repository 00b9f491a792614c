import MPOSCore

/// Why a reader link operation failed. Every case maps to a stable `MPOSError` code in the
/// 31xx range (reader link) so that apps can match on codes across modules.
public enum ReaderLinkError: Error, Sendable, Hashable {
    /// The link is closed (by either side, or because it dropped).
    case linkClosed
    /// No answer arrived within the protocol's timing rules.
    case timeout
    /// Bytes that are not a valid frame or message; `detail` names the problem.
    case malformed(detail: String)
    /// A frame failed authentication, or arrived replayed, reordered or truncated. The session
    /// is closed.
    case integrity(detail: String)
    /// Pairing failed because the two sides hold different shared secrets.
    case sharedSecretInvalid
    /// A shared secret that is not 32 bytes (or 64 hex characters).
    case invalidSharedSecret(detail: String)
    /// The peer speaks no protocol version this side does.
    case unsupportedVersion(UInt8)
    /// The reader answered with an error status.
    case rejected(ReaderStatusCode, detail: String)
    /// The request is not allowed in the session's current state.
    case notAllowed(detail: String)
    /// The reader refused pairing because another SDK holds it (a reader serves one at a
    /// time); `holder` names that SDK as the reader knows it, such as its "HOST:PORT".
    case readerInUse(by: String)
}

extension ReaderConnection {
    /// The detail an error frame carries for `error`: its own text for the cases that have one.
    static func detail(of error: ReaderLinkError) -> String {
        switch error {
        case .malformed(let detail), .integrity(let detail), .notAllowed(let detail): detail
        default: "\(error)"
        }
    }
}
