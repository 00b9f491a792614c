import CardCrypto
import Testing

/// The 12-byte AES DUKPT key serial number.
@Suite(.timeLimit(.minutes(2))) struct KSNTests {
    @Test func parsesInitialKeyIDAndCounter() throws {
        let ksn = try KSN(hex: "123456789012345600000001")
        #expect(ksn.initialKeyID == bytes("1234567890123456"))
        #expect(ksn.bdkID == bytes("12345678"))
        #expect(ksn.derivationID == bytes("90123456"))
        #expect(ksn.counter == 1)
    }

    @Test func encodesCounterBigEndian() throws {
        let ksn = try KSN(initialKeyID: bytes("1234567890123456"), counter: 0xFFFE_2000)
        #expect(ksn.hex == "1234567890123456FFFE2000")
        #expect(ksn.bytes.count == 12)
        #expect(try KSN(bytes: ksn.bytes) == ksn)
        #expect(ksn.description == ksn.hex)
    }

    @Test func rejectsWrongLengthsAndBadHex() {
        #expect(throws: CardCryptoError(.invalidKSN, "")) { try KSN(hex: "FFFF9876543210E00001") }
        #expect(throws: CardCryptoError(.invalidKSN, "")) { try KSN(hex: "12345678901234560000000G") }
        #expect(throws: CardCryptoError(.invalidInitialKeyID, "")) { try KSN(initialKeyID: [1], counter: 1) }
    }
}
