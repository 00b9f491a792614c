import AsyncHTTPClient
import MPOSKit
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// How an exchange ended without a complete answer. Keeps apart a request that never left
/// (no connection, no TLS) from one whose answer was lost, as the payment engine tells them
/// apart by the reason it reports.
enum GatewayExchangeFailure: Error, Sendable, Equatable {
    /// No connection: refused, timed out, unresolvable host.
    case connect(String)
    /// The TLS handshake failed, usually because the gateway's certificate is not trusted:
    /// sending again would fail the same way.
    case tls(String)
    /// The connection closed before any byte of the answer arrived.
    case closedBeforeAnswer
    /// The connection closed after part of the answer arrived.
    case closedMidAnswer
    /// The bytes were not an HTTP/1.1 answer.
    case malformed(String)
    /// The deadline passed first.
    case timedOut
    /// The calling task was cancelled.
    case cancelled
    /// The transport was shut down.
    case shutDown
    /// A socket or client error.
    case io(String)

    /// The failure of a request whose answer had not begun.
    init(beforeAnswer error: any Error) {
        self = Self.classify(error) ?? .closedBeforeAnswer
    }

    /// The failure of a request whose answer had begun (its head was in).
    init(midAnswer error: any Error) {
        self = Self.classify(error) ?? .closedMidAnswer
    }

    /// The failure `error` names; nil for a connection that closed, which depends on whether
    /// the answer had begun.
    private static func classify(_ error: any Error) -> GatewayExchangeFailure? {
        switch error {
        case let failure as GatewayExchangeFailure:
            return failure
        case let client as HTTPClientError:
            return classify(client)
        case let channel as ChannelError:
            switch channel {
            // Written on a kept connection that had closed while idle: nothing was sent.
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed: return nil
            case .connectTimeout: return .connect("connect timed out")
            default: return .io("\(type(of: channel))")
            }
        case let parser as HTTPParserError:
            // The decoder reports a close in the middle of a message as a parser error.
            if case .invalidEOFState = parser { return .closedMidAnswer }
            return .malformed("\(parser)")
        case let connection as NIOConnectionError:
            return connectError(connection)
        case let io as IOError:
            switch io.errnoCode {
            case ECONNREFUSED: return .connect("connection refused")
            // The peer had closed (or reset) the connection: on a kept connection, a write that
            // raced the server's close; before the answer, nothing was answered.
            case ECONNRESET, EPIPE: return nil
            default: return .io("IOError")
            }
        case NIOSSLError.uncleanShutdown:
            // The peer closed the TCP connection without a TLS goodbye: a lost connection.
            return nil
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return tlsFailure(error)
        case is CancellationError:
            return .cancelled
        default:
            return .io("\(type(of: error))")
        }
    }

    private static func classify(_ error: HTTPClientError) -> GatewayExchangeFailure? {
        switch error {
        case .remoteConnectionClosed: nil
        case .deadlineExceeded, .readTimeout, .writeTimeout: .timedOut
        case .connectTimeout: .connect("connect timed out")
        // A handshake that timed out may succeed on the next try; an untrusted certificate never.
        case .tlsHandshakeTimeout: .connect("TLS handshake timed out")
        case .cancelled, .requestStreamCancelled: .cancelled
        case .alreadyShutdown: .shutDown
        default: .io("\(error)")
        }
    }

    /// The failure of a connect: refused, timed out, unresolvable, or another socket error.
    private static func connectError(_ error: NIOConnectionError) -> GatewayExchangeFailure {
        let underlying = error.connectionErrors.map(\.error)
        guard let first = underlying.first else { return .connect("the gateway's host name did not resolve") }
        if underlying.contains(where: { if case .connectTimeout? = $0 as? ChannelError { true } else { false } }) {
            return .connect("connect timed out")
        }
        if underlying.contains(where: { ($0 as? IOError)?.errnoCode == ECONNREFUSED }) {
            return .connect("connection refused")
        }
        return .connect("cannot connect (\(type(of: first)))")
    }

    /// A TLS failure in words a developer acts on: an untrusted or mismatched certificate,
    /// or another handshake error.
    private static func tlsFailure(_ error: any Error) -> GatewayExchangeFailure {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return .tls("the gateway's TLS certificate does not name its host")
        }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .tls("the gateway's TLS certificate is not trusted")
        }
        if case .handshakeFailed? = error as? NIOSSLError {
            return .tls("TLS handshake failed")
        }
        return .tls("TLS error (\(type(of: error)))")
    }

    /// The error the caller sees.
    var transportError: GatewayTransportError {
        switch self {
        case .connect(let reason): GatewayTransportError(reason: reason)
        case .tls(let reason): GatewayTransportError(reason: reason, isPermanent: true)
        case .closedBeforeAnswer: GatewayTransportError(reason: "connection closed before an answer")
        case .closedMidAnswer: GatewayTransportError(reason: "connection closed in the middle of the answer")
        case .malformed(let detail): GatewayTransportError(reason: "malformed response (\(detail))")
        case .timedOut: GatewayTransportError(reason: "timed out")
        case .cancelled: GatewayTransportError(reason: "cancelled", isPermanent: true)
        case .shutDown: GatewayTransportError(reason: "the transport is shut down", isPermanent: true)
        case .io(let detail): GatewayTransportError(reason: "I/O error (\(detail))")
        }
    }
}
