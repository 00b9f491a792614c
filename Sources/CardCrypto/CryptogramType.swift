/// Which application cryptogram a card returned, from bits 8–7 of the Cryptogram Information
/// Data (tag 9F27; EMV Book 3, Table 14). All three are computed the same way
/// (``generateCryptogram(input:sessionKey:)``); the type only says what the card decided.
public enum CryptogramType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Application Authentication Cryptogram: the card declines (CID `00xx xxxx`).
    case aac = 0x00
    /// Transaction Certificate: the card approves offline (CID `01xx xxxx`).
    case tc = 0x40
    /// Authorisation Request Cryptogram: the card asks the issuer online (CID `10xx xxxx`).
    case arqc = 0x80

    /// The type in a CID byte, or `nil` for the reserved value `11`.
    public init?(cryptogramInformationData cid: UInt8) {
        self.init(rawValue: cid & 0xC0)
    }

    /// `ARQC`, `TC` or `AAC`.
    public var description: String {
        switch self {
        case .aac: "AAC"
        case .tc: "TC"
        case .arqc: "ARQC"
        }
    }
}
