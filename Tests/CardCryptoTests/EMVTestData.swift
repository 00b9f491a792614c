import CardCrypto
import EMV

/// A plausible first GENERATE AC: the CDOL1 data and card data an ARQC is computed over.
enum EMVTestData {
    static let pan = PAN("4761739001010010")!
    static let panSequenceNumber: UInt8 = 0x01

    static let values: [EMVTag: [UInt8]] = [
        0x9F02: bytes("000000001234"),
        0x9F03: bytes("000000000000"),
        0x9F1A: bytes("0250"),
        0x95: bytes("0000008000"),
        0x5F2A: bytes("0978"),
        0x9A: bytes("250314"),
        0x9C: bytes("00"),
        0x9F37: bytes("9BADBCAB"),
        0x82: bytes("1800"),
        0x9F36: bytes("002A"),
        0x9F10: bytes("06010A03A00000"),
    ]

    static func sessionKey(atc: UInt16 = 0x002A) throws -> AES128Key {
        try EMVKeyDerivation.sessionKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: pan, panSequenceNumber: panSequenceNumber, atc: atc)
    }
}
