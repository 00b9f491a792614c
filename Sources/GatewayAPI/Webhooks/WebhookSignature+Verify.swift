import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension WebhookSignature {
    /// Checks a delivery: the header's signature must be the HMAC of its time, `eventID` and
    /// `body` with `secret`, and its time within `tolerance` seconds of `now` either way.
    ///
    /// The signature is checked first and in constant time, so a forged header learns
    /// nothing about the time; only an authentic but old delivery (a replay) is called stale.
    ///
    /// ```swift
    /// do {
    ///     try WebhookSignature.verify(
    ///         header: signatureHeader, eventID: eventIDHeader, body: body, secret: secret, now: Date())
    /// } catch {
    ///     return Response(status: .badRequest)  // forged, tampered with, or replayed
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - header: the ``headerName`` header's value.
    ///   - eventID: the ``eventIDHeaderName`` header's value.
    ///   - body: the request body's bytes, exactly as received.
    ///   - secret: the merchant's webhook secret.
    ///   - now: the receiver's time.
    ///   - tolerance: how far the signing time may be from `now`, in seconds (300).
    /// - Returns: the verified signature, whose ``timestamp`` is when the gateway signed.
    /// - Throws: ``WebhookSignatureError/malformedHeader``,
    ///   ``WebhookSignatureError/signatureMismatch`` (another secret, or a body, event id or
    ///   time changed) or ``WebhookSignatureError/staleTimestamp``.
    @discardableResult
    public static func verify(
        header: String, eventID: String, body: some Collection<UInt8>, secret: String, now: Date,
        tolerance: TimeInterval = defaultTolerance
    ) throws(WebhookSignatureError) -> WebhookSignature {
        let signature = try WebhookSignature(header: header)
        let text = signedText(timestamp: signature.timestamp, eventID: eventID, body: body)
        let key = key(secret)
        var matched = false
        for candidate in signature.signatures {
            // Every candidate is checked, so the time taken does not tell which one matched.
            matched =
                HMAC<SHA256>.isValidAuthenticationCode(candidate, authenticating: text, using: key) || matched
        }
        guard matched else { throw .signatureMismatch }
        guard abs(now.timeIntervalSince(signature.date)) <= tolerance else { throw .staleTimestamp }
        return signature
    }
}
