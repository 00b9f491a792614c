import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The signature of a webhook delivery, as its ``headerName`` header carries it, in the scheme
/// Stripe's webhooks use: `t=<Unix seconds>,v1=<hex>`, where the hex is the HMAC-SHA256, keyed
/// with the merchant's webhook secret, of `"<t>.<event id>.<body>"`.
///
/// The timestamp and the event id (sent in ``eventIDHeaderName``) are signed with the body, so
/// a captured delivery cannot be replayed later than the receiver's tolerance, nor passed off
/// as another event. Receivers check a delivery with ``verify(header:eventID:body:secret:now:tolerance:)``:
///
/// ```swift
/// let signature = request.headers[WebhookSignature.headerName] ?? ""
/// let eventID = request.headers[WebhookSignature.eventIDHeaderName] ?? ""
/// try WebhookSignature.verify(
///     header: signature, eventID: eventID, body: bodyBytes, secret: webhookSecret, now: Date())
/// ```
///
/// The header may carry several `v1` values (a gateway signing with two secrets while one
/// replaces the other); one matching is enough. Unknown keys are ignored.
public struct WebhookSignature: Sendable, Hashable {
    /// The header that carries the signature: `MPOS-Signature`.
    public static let headerName = "MPOS-Signature"
    /// The header that carries the event id, unique per state change: `MPOS-Event-Id`.
    /// Receivers drop repeats by it; it is part of the signed text.
    public static let eventIDHeaderName = "MPOS-Event-Id"
    /// The header that carries the attempt's number, from 1: `MPOS-Attempt` (not signed).
    public static let attemptHeaderName = "MPOS-Attempt"
    /// How far, in seconds, a signature's time may be from the receiver's clock: 300 (five
    /// minutes, as Stripe's libraries allow).
    public static let defaultTolerance: TimeInterval = 300

    /// When the gateway signed, in whole seconds since 1970 (the header's `t`).
    public let timestamp: Int64
    /// The `v1` signatures, each 32 bytes.
    public let signatures: [[UInt8]]

    /// The signing time as a date.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(timestamp)) }

    /// The header value for a delivery of `body` as event `eventID` at `date`, signed with
    /// `secret`.
    ///
    /// ```swift
    /// WebhookSignature.header(body: body, eventID: "evt_1f", secret: secret, at: now)
    /// // "t=1733580000,v1=5f0c…"
    /// ```
    public static func header(
        body: some Collection<UInt8>, eventID: String, secret: String, at date: Date
    ) -> String {
        let timestamp = Int64(date.timeIntervalSince1970.rounded(.down))
        let mac = HMAC<SHA256>.authenticationCode(
            for: signedText(timestamp: timestamp, eventID: eventID, body: body), using: key(secret))
        return "t=\(timestamp),v1=\(hex(Array(mac)))"
    }

    /// Reads a header value without checking it.
    ///
    /// - Throws: ``WebhookSignatureError/malformedHeader`` when there is no integer `t`, no
    ///   `v1`, or a `v1` that is not 64 hex digits.
    public init(header: String) throws(WebhookSignatureError) {
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for item in header.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw .malformedHeader }
            let key = Self.trimmed(pair[0])
            let value = Self.trimmed(pair[1])
            switch key {
            case "t":
                guard timestamp == nil, !value.isEmpty, value.allSatisfy(\.isASCIIDigit),
                    let seconds = Int64(value)
                else { throw .malformedHeader }
                timestamp = seconds
            case "v1":
                guard let bytes = Self.bytes(hex: String(value)), bytes.count == SHA256.byteCount else {
                    throw .malformedHeader
                }
                signatures.append(bytes)
            default:
                continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { throw .malformedHeader }
        self.timestamp = timestamp
        self.signatures = signatures
    }

    /// The bytes the HMAC covers: `"<timestamp>.<eventID>."` and the body.
    static func signedText(timestamp: Int64, eventID: String, body: some Collection<UInt8>) -> [UInt8] {
        Array("\(timestamp).\(eventID).".utf8) + Array(body)
    }

    static func key(_ secret: String) -> SymmetricKey { SymmetricKey(data: Array(secret.utf8)) }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
