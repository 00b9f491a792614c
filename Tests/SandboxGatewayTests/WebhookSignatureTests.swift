import Crypto
import Foundation
import GatewayAPI
import Testing

/// `MPOS-Signature`: an HMAC-SHA256 over `timestamp.event-id.body`, checked by receivers with
/// `WebhookSignature.verify` (GatewayAPI, no server needed). The old header signed the body
/// only, so a captured delivery could be replayed for ever and passed off as another event.
@Suite(.timeLimit(.minutes(1))) struct WebhookSignatureTests {
    static let secret = "whsec-0123456789abcdef"
    static let body = Array(#"{"uniqueID":"txn_1","state":"approved"}"#.utf8)
    static let signedAt = Date(timeIntervalSince1970: 1_733_580_000)

    static func header(body: [UInt8] = body, eventID: String = "evt_1", at date: Date = signedAt) -> String {
        WebhookSignature.header(body: body, eventID: eventID, secret: secret, at: date)
    }

    @Test func aSignedDeliveryVerifiesAndTellsWhenItWasSigned() throws {
        let header = Self.header()
        #expect(header.hasPrefix("t=1733580000,v1="))
        #expect(header.count == "t=1733580000,v1=".count + 64)
        let signature = try WebhookSignature.verify(
            header: header, eventID: "evt_1", body: Self.body, secret: Self.secret, now: Self.signedAt)
        #expect(signature.timestamp == 1_733_580_000 && signature.date == Self.signedAt)
    }

    /// The hex is the HMAC a receiver in any language computes over `t.event-id.body`.
    @Test func theSignatureIsTheHMACOfTimestampEventIDAndBody() throws {
        let text = Array("1733580000.evt_1.".utf8) + Self.body
        let mac = HMAC<SHA256>.authenticationCode(
            for: text, using: SymmetricKey(data: Array(Self.secret.utf8)))
        let hex = mac.map { String(format: "%02x", $0) }.joined()
        #expect(Self.header() == "t=1733580000,v1=\(hex)")
    }

    @Test func aChangedBodyEventIDTimestampOrSecretFails() {
        let header = Self.header()
        let verify = {
            (header: String, eventID: String, body: [UInt8], secret: String) throws(WebhookSignatureError) in
            _ = try WebhookSignature.verify(
                header: header, eventID: eventID, body: body, secret: secret, now: Self.signedAt)
        }
        var tampered = Self.body
        tampered[tampered.count - 3] ^= 0x01
        #expect(throws: WebhookSignatureError.signatureMismatch) {
            try verify(header, "evt_1", tampered, Self.secret)
        }
        #expect(throws: WebhookSignatureError.signatureMismatch) {
            try verify(header, "evt_2", Self.body, Self.secret)
        }
        // Moving the time within the tolerance does not carry the signature with it.
        let moved = header.replacingOccurrences(of: "t=1733580000", with: "t=1733580001")
        #expect(throws: WebhookSignatureError.signatureMismatch) {
            try verify(moved, "evt_1", Self.body, Self.secret)
        }
        #expect(throws: WebhookSignatureError.signatureMismatch) {
            try verify(header, "evt_1", Self.body, "another-secret-0123")
        }
    }

    @Test func aSignatureOlderThanTheToleranceIsStale() throws {
        let header = Self.header()
        try WebhookSignature.verify(
            header: header, eventID: "evt_1", body: Self.body, secret: Self.secret,
            now: Self.signedAt.addingTimeInterval(300))
        #expect(throws: WebhookSignatureError.staleTimestamp) {
            try WebhookSignature.verify(
                header: header, eventID: "evt_1", body: Self.body, secret: Self.secret,
                now: Self.signedAt.addingTimeInterval(301))
        }
        // A time far ahead of the receiver's clock is refused the same way.
        #expect(throws: WebhookSignatureError.staleTimestamp) {
            try WebhookSignature.verify(
                header: header, eventID: "evt_1", body: Self.body, secret: Self.secret,
                now: Self.signedAt.addingTimeInterval(-301))
        }
        // A receiver may choose another tolerance.
        try WebhookSignature.verify(
            header: header, eventID: "evt_1", body: Self.body, secret: Self.secret,
            now: Self.signedAt.addingTimeInterval(3_600), tolerance: 3_600)
    }

    /// A forged header is a mismatch whatever its time: staleness is only told of authentic ones.
    @Test func aForgedOldHeaderIsAMismatchNotStale() {
        let forged = "t=1000,v1=" + String(repeating: "ab", count: 32)
        #expect(throws: WebhookSignatureError.signatureMismatch) {
            try WebhookSignature.verify(
                header: forged, eventID: "evt_1", body: Self.body, secret: Self.secret, now: Self.signedAt)
        }
    }

    @Test(arguments: [
        "", "garbage", "t=1733580000", "v1=" + String(repeating: "ab", count: 32),
        "t=abc,v1=" + String(repeating: "ab", count: 32), "t=-5,v1=" + String(repeating: "ab", count: 32),
        "t=1733580000,v1=abcd", "t=1733580000,v1=" + String(repeating: "zz", count: 32),
        "t=1,t=2,v1=" + String(repeating: "ab", count: 32),
        "t=99999999999999999999,v1=" + String(repeating: "ab", count: 32),
    ])
    func aMalformedHeaderIsRefusedAsMalformed(header: String) {
        #expect(throws: WebhookSignatureError.malformedHeader) {
            try WebhookSignature.verify(
                header: header, eventID: "evt_1", body: Self.body, secret: Self.secret, now: Self.signedAt)
        }
    }

    /// While a secret is replaced the header may carry one `v1` per secret; unknown keys are
    /// ignored, as Stripe's receivers ignore `v0`.
    @Test func anyOfSeveralSignaturesMayMatch() throws {
        let other = WebhookSignature.header(
            body: Self.body, eventID: "evt_1", secret: "old-secret-0123456", at: Self.signedAt)
        let v1Other = other.split(separator: ",")[1]
        let header = Self.header() + ",\(v1Other),v0=ignored"
        try WebhookSignature.verify(
            header: header, eventID: "evt_1", body: Self.body, secret: Self.secret, now: Self.signedAt)
        try WebhookSignature.verify(
            header: header, eventID: "evt_1", body: Self.body, secret: "old-secret-0123456",
            now: Self.signedAt)
        #expect(try WebhookSignature(header: header).signatures.count == 2)
    }
}
