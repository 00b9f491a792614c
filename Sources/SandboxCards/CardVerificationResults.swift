/// The sandbox chip's Issuer Application Data (tag 9F10), which carries its Card Verification
/// Results (CVR) to the issuer inside the cryptogram input. The layout is the sandbox's own,
/// modelled on the Visa CVN 10 IAD:
///
/// | Byte | Value                                                                 |
/// |------|-----------------------------------------------------------------------|
/// | 0    | `07`, the length of what follows                                      |
/// | 1    | `01`, key derivation index                                            |
/// | 2    | `12`, cryptogram version (sandbox AES-CMAC)                           |
/// | 3    | CVR 1: bits 8-7 second GENERATE AC (`00` AAC, `01` TC, `10` not requested); bits 6-5 first GENERATE AC (`00` AAC, `01` TC, `10` ARQC) |
/// | 4    | CVR 2: bit 8 offline PIN performed, bit 7 offline PIN failed, bit 6 PIN try limit exceeded, bit 5 issuer authentication failed on the last transaction, bit 4 online PIN entered did not match (the sandbox's stand-in for the PIN block it does not send), bit 3 PIN bypassed |
/// | 5    | CVR 3: PIN tries remaining (low nibble)                               |
/// | 6-7  | `0000`                                                                |
public struct CardVerificationResults: Sendable, Hashable {
    /// The cryptogram a GENERATE AC returned, as the CVR records it.
    public enum Cryptogram: UInt8, Sendable, Hashable {
        /// Application Authentication Cryptogram: declined.
        case aac = 0
        /// Transaction Certificate: approved.
        case tc = 1
        /// Authorization Request Cryptogram: go online (first GENERATE AC only).
        case arqc = 2
    }

    /// What the first GENERATE AC returned.
    public var firstGenerateAC: Cryptogram
    /// What the second GENERATE AC returned, or `nil` when there was none.
    public var secondGenerateAC: Cryptogram?
    /// Offline PIN verification ran.
    public var offlinePINPerformed = false
    /// Offline PIN verification failed.
    public var offlinePINFailed = false
    /// The PIN try limit is exceeded.
    public var pinTryLimitExceeded = false
    /// Issuer authentication failed on the previous online transaction.
    public var lastIssuerAuthenticationFailed = false
    /// The online PIN the cardholder entered is not the card's (sandbox stand-in for a PIN
    /// block).
    public var onlinePINMismatch = false
    /// The cardholder bypassed PIN entry.
    public var pinBypassed = false
    /// PIN tries remaining, 0–15.
    public var pinTriesRemaining: UInt8 = 3

    /// Creates results for a first GENERATE AC.
    public init(firstGenerateAC: Cryptogram, secondGenerateAC: Cryptogram? = nil) {
        self.firstGenerateAC = firstGenerateAC
        self.secondGenerateAC = secondGenerateAC
    }

    /// The 8-byte value of tag 9F10.
    public var issuerApplicationData: [UInt8] {
        let second: UInt8 = secondGenerateAC.map { $0 == .tc ? 0x40 : 0x00 } ?? 0x80
        let first: UInt8 = firstGenerateAC.rawValue << 4
        var cvr2: UInt8 = 0
        if offlinePINPerformed { cvr2 |= 0x80 }
        if offlinePINFailed { cvr2 |= 0x40 }
        if pinTryLimitExceeded { cvr2 |= 0x20 }
        if lastIssuerAuthenticationFailed { cvr2 |= 0x10 }
        if onlinePINMismatch { cvr2 |= 0x08 }
        if pinBypassed { cvr2 |= 0x04 }
        return [0x07, 0x01, 0x12, second | first, cvr2, pinTriesRemaining & 0x0F, 0x00, 0x00]
    }

    /// Reads tag 9F10 in the sandbox layout; `nil` for any other layout.
    public init?(issuerApplicationData iad: some Collection<UInt8>) {
        let bytes = Array(iad)
        guard bytes.count == 8, bytes[0] == 0x07, bytes[2] == 0x12,
            let first = Cryptogram(rawValue: (bytes[3] >> 4) & 0x03)
        else { return nil }
        self.firstGenerateAC = first
        switch bytes[3] >> 6 {
        case 0: self.secondGenerateAC = .aac
        case 1: self.secondGenerateAC = .tc
        default: self.secondGenerateAC = nil
        }
        offlinePINPerformed = bytes[4] & 0x80 != 0
        offlinePINFailed = bytes[4] & 0x40 != 0
        pinTryLimitExceeded = bytes[4] & 0x20 != 0
        lastIssuerAuthenticationFailed = bytes[4] & 0x10 != 0
        onlinePINMismatch = bytes[4] & 0x08 != 0
        pinBypassed = bytes[4] & 0x04 != 0
        pinTriesRemaining = bytes[5] & 0x0F
    }
}

/// The sandbox Card Status Update: the 4 bytes the issuer sends after the ARPC in tag 91 and
/// that the ARPC authenticates. Byte 1: bit 8 the issuer approves, bit 7 block the
/// application, bit 6 reset the PIN try counter; bytes 2-4 `000000`.
public struct CardStatusUpdate: Sendable, Hashable {
    /// The issuer approves the transaction.
    public var approved: Bool
    /// The chip must block the application (no later transaction selects it).
    public var blockApplication: Bool
    /// The chip resets its PIN try counter to the limit.
    public var resetPINTryCounter: Bool

    /// Creates a CSU.
    public init(approved: Bool, blockApplication: Bool = false, resetPINTryCounter: Bool = false) {
        self.approved = approved
        self.blockApplication = blockApplication
        self.resetPINTryCounter = resetPINTryCounter
    }

    /// The 4 bytes.
    public var bytes: [UInt8] {
        var first: UInt8 = 0
        if approved { first |= 0x80 }
        if blockApplication { first |= 0x40 }
        if resetPINTryCounter { first |= 0x20 }
        return [first, 0, 0, 0]
    }

    /// Reads the CSU from the value of tag 91 (ARPC, then CSU); `nil` when it is too short.
    public init?(issuerAuthenticationData tag91: some Collection<UInt8>) {
        let bytes = Array(tag91)
        guard bytes.count >= 8 else { return nil }
        approved = bytes[4] & 0x80 != 0
        blockApplication = bytes[4] & 0x40 != 0
        resetPINTryCounter = bytes[4] & 0x20 != 0
    }
}
