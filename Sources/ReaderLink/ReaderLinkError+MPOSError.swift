import MPOSCore

extension MPOSError.Code {
    /// 3101: the reader link is closed.
    public static let readerLinkClosed = 3101
    /// 3102: the reader did not answer in time.
    public static let readerLinkTimeout = 3102
    /// 3103: the reader sent bytes that are not a valid frame or message.
    public static let readerLinkMalformed = 3103
    /// 3104: a frame failed authentication or arrived replayed, reordered or truncated.
    public static let readerLinkIntegrity = 3104
    /// 3105: the reader holds a different shared secret.
    public static let readerSharedSecretMismatch = 3105
    /// 3106: the shared secret configured is not 32 bytes / 64 hexadecimal characters.
    public static let readerSharedSecretMalformed = 3106
    /// 3107: the reader speaks no protocol version the SDK does.
    public static let readerUnsupportedVersion = 3107
    /// 3108: the reader answered with an error status.
    public static let readerRejected = 3108
    /// 3109: the request is not allowed in the link's current state.
    public static let readerRequestNotAllowed = 3109
    /// 3110: the reader is paired with another terminal.
    public static let readerInUse = 3110
}

extension ReaderLinkError {
    /// The matching `MPOSError` (codes 3101 to 3110). Messages carry no card data.
    public var mposError: MPOSError {
        switch self {
        case .linkClosed:
            MPOSError(
                code: MPOSError.Code.readerLinkClosed, message: "The reader link is closed.",
                customerMessage: "The card reader is disconnected.")
        case .timeout:
            MPOSError(
                code: MPOSError.Code.readerLinkTimeout, message: "The reader did not answer in time.",
                customerMessage: "The card reader is not responding.")
        case .malformed(let detail):
            MPOSError(code: MPOSError.Code.readerLinkMalformed, message: "Malformed reader data: \(detail).")
        case .integrity(let detail):
            MPOSError(
                code: MPOSError.Code.readerLinkIntegrity,
                message: "Reader link integrity failure: \(detail).",
                customerMessage: "The connection to the card reader was interrupted.")
        case .sharedSecretInvalid:
            MPOSError(
                code: MPOSError.Code.readerSharedSecretMismatch,
                message: "The reader holds a different shared secret; pairing refused.",
                customerMessage: "The card reader could not be paired.")
        case .invalidSharedSecret(let detail):
            MPOSError(
                code: MPOSError.Code.readerSharedSecretMalformed, message: "Invalid shared secret: \(detail)."
            )
        case .unsupportedVersion(let version):
            MPOSError(
                code: MPOSError.Code.readerUnsupportedVersion,
                message: "The reader speaks no supported protocol version (peer version \(version)).",
                customerMessage: "The card reader needs an update.")
        case .rejected(let status, let detail):
            MPOSError(
                code: MPOSError.Code.readerRejected,
                message:
                    "The reader answered status 0x\(String(status.rawValue, radix: 16, uppercase: true)): \(detail)."
            )
        case .notAllowed(let detail):
            MPOSError(code: MPOSError.Code.readerRequestNotAllowed, message: "Not allowed now: \(detail).")
        case .readerInUse(let holder):
            MPOSError(
                code: MPOSError.Code.readerInUse,
                message: "The reader is in use by another terminal (\(holder)); it serves one at a time.",
                customerMessage: "The card reader is connected to another device.")
        }
    }
}

extension ReaderLinkError: CustomStringConvertible {
    /// What went wrong, in words, as a clause to follow a colon: `"the reader link is
    /// closed"`, `"the reader did not answer in time"` (the ``mposError`` message, without
    /// its capital and full stop).
    public var description: String {
        var text = mposError.message
        if text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
