/// What an AES DUKPT working key is for: the Key Usage Indicator of the derivation data
/// (ANSI X9.24-3-2017, 6.3.2, Table 2).
///
/// Usage is bound into the derivation, so a key derived for one usage is useless for another.
/// Direction matters for data and MAC keys: the transaction-originating device (the reader) and
/// the host derive the *same* key for a given usage, for example both use
/// ``dataEncryptionEncrypt`` for data the reader encrypts and the host decrypts.
public enum DUKPTKeyUsage: UInt16, Sendable, CaseIterable, CustomStringConvertible {
    /// 0x0002: Key Encryption Key, to wrap other keys.
    case keyEncryption = 0x0002
    /// 0x1000: PIN encryption (ISO 9564 format 4 PIN blocks).
    case pinEncryption = 0x1000
    /// 0x2000: MAC generation, for messages the reader authenticates.
    case macGeneration = 0x2000
    /// 0x2001: MAC verification, for messages the host authenticates to the reader.
    case macVerification = 0x2001
    /// 0x2002: MAC in both directions.
    case macBothWays = 0x2002
    /// 0x3000: data encryption, request direction (the reader encrypts, the host decrypts).
    case dataEncryptionEncrypt = 0x3000
    /// 0x3001: data encryption, response direction (the host encrypts, the reader decrypts).
    case dataEncryptionDecrypt = 0x3001
    /// 0x3002: data encryption in both directions.
    case dataEncryptionBothWays = 0x3002

    /// The standard's name for the usage.
    public var description: String {
        switch self {
        case .keyEncryption: "Key Encryption Key"
        case .pinEncryption: "PIN Encryption"
        case .macGeneration: "Message Authentication, generation"
        case .macVerification: "Message Authentication, verification"
        case .macBothWays: "Message Authentication, both ways"
        case .dataEncryptionEncrypt: "Data Encryption, encrypt"
        case .dataEncryptionDecrypt: "Data Encryption, decrypt"
        case .dataEncryptionBothWays: "Data Encryption, both ways"
        }
    }
}
