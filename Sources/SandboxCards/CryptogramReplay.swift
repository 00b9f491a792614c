import EMV

/// The sandbox issuer's freshness rule, pure: a chip's Application Transaction Counter (9F36)
/// only grows, and a DUKPT key serial number is used once, so a request that repeats either is
/// a replayed (or stale) cryptogram and is declined with ``responseCode``.
///
/// The gateway keeps what was seen: per card application (card fingerprint and PAN sequence
/// number) and transaction date (9A) the highest ATC, and every KSN, and asks
/// ``reason(_:highestATC:ksnSeenBefore:)`` inside the write that records the decision.
///
/// ```swift
/// CryptogramReplay.reason(counters, highestATC: 0x13, ksnSeenBefore: false)
/// // "replayed cryptogram: ATC 0012 is not above 0013 already seen for this card"
/// ```
public enum CryptogramReplay {
    /// ISO 8583 `63`, security violation: no sandbox scenario amount answers it.
    public static let responseCode = "63"

    /// Why a request with `counters` is a replay, or `nil` when it is fresh.
    /// - Parameters:
    ///   - highestATC: the highest ATC already seen for the card application on the request's
    ///     transaction date; `nil` when none was.
    ///   - ksnSeenBefore: whether the request's KSN was seen before.
    public static func reason(_ counters: CryptogramCounters, highestATC: UInt16?, ksnSeenBefore: Bool)
        -> String?
    {
        if let atc = counters.atc, let highestATC, atc <= highestATC {
            return
                "replayed cryptogram: ATC \(hex(atc)) is not above \(hex(highestATC)) already seen for this card"
        }
        if ksnSeenBefore {
            return "replayed cryptogram: KSN \(Hex.encode(counters.ksn)) was used before"
        }
        return nil
    }

    private static func hex(_ atc: UInt16) -> String {
        Hex.encode([UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)])
    }
}

/// The counters of one verified authorization request that make it unrepeatable.
public struct CryptogramCounters: Sendable, Hashable {
    /// The DUKPT key serial number (12 bytes) that sealed the card data.
    public let ksn: [UInt8]
    /// The PAN sequence number (5F34, one BCD byte) that, with the card number, names the card
    /// application whose counter ``atc`` is.
    public let panSequenceNumber: UInt8
    /// Application Transaction Counter (9F36); `nil` for a swipe, which has no cryptogram.
    public let atc: UInt16?
    /// Transaction Date (9A) as `YYMMDD`, which the cryptogram covers; `nil` for a swipe.
    public let transactionDate: String?

    /// Creates counters (the issuer reads them from a verified request).
    public init(ksn: [UInt8], panSequenceNumber: UInt8, atc: UInt16?, transactionDate: String?) {
        self.ksn = ksn
        self.panSequenceNumber = panSequenceNumber
        self.atc = atc
        self.transactionDate = transactionDate
    }
}
