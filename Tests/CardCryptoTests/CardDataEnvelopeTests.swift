import Testing

@testable import CardCrypto

/// Card data encrypted by the reader under DUKPT and opened by the host.
@Suite(.timeLimit(.minutes(2))) struct CardDataEnvelopeTests {
    let initialKeyID = SandboxKeys.initialKeyID(derivationID: 0x0000_0042)

    func reader() throws -> DUKPTReader { try DUKPTReader(bdk: SandboxKeys.bdk, initialKeyID: initialKeyID) }

    @Test(arguments: [0, 1, 15, 16, 17, 31, 32, 100])
    func roundTripsAnyLength(length: Int) throws {
        var reader = try reader()
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let (ksn, ciphertext) = try CardDataEnvelope.seal(plaintext, reader: &reader)
        #expect(ciphertext.count == (length / 16 + 1) * 16 + CardDataEnvelope.macLength)
        #expect(
            try CardDataEnvelope.open(ciphertext: ciphertext, ksn: ksn, bdk: SandboxKeys.bdk) == plaintext)
    }

    @Test func eachSealUsesTheNextKSNAndAFreshKey() throws {
        var reader = try reader()
        let track2 = bytes("4761739001010010D22122011143804400000F")
        let first = try CardDataEnvelope.seal(track2, reader: &reader)
        let second = try CardDataEnvelope.seal(track2, reader: &reader)
        #expect(first.ksn.counter == 1)
        #expect(second.ksn.counter == 2)
        #expect(first.ciphertext != second.ciphertext)
    }

    @Test func sealedDataIsCBCUnderTheDataKeyWithZeroIVThenACMACUnderTheMACKey() throws {
        var reader = try reader()
        let plaintext = bytes("00112233445566778899AABBCCDDEEFF")
        let (ksn, ciphertext) = try CardDataEnvelope.seal(plaintext, reader: &reader)
        let dataKey = try DUKPT.workingKey(bdk: SandboxKeys.bdk, ksn: ksn, usage: .dataEncryptionEncrypt)
            .bytes
        let c1 = try AESBlock.encrypt(plaintext, key: dataKey)
        let c2 = try AESBlock.encrypt(Bytes.xor(c1, bytes("80000000000000000000000000000000")), key: dataKey)
        let macKey = try DUKPT.workingKey(bdk: SandboxKeys.bdk, ksn: ksn, usage: .macGeneration)
        let mac = try AESCMAC.authenticationCode(for: c1 + c2, key: macKey, truncatedTo: 8)
        #expect(ciphertext == c1 + c2 + mac)
    }

    @Test func wrongBDKIsATypedError() throws {
        var reader = try reader()
        let (ksn, ciphertext) = try CardDataEnvelope.seal(bytes("5413330089010434D2512F"), reader: &reader)
        #expect(throws: CardCryptoError(.decryptionFailed, "")) {
            try CardDataEnvelope.open(
                ciphertext: ciphertext, ksn: ksn, bdk: key("000102030405060708090A0B0C0D0E0F"))
        }
    }

    @Test func wrongKSNIsATypedError() throws {
        var reader = try reader()
        let (ksn, ciphertext) = try CardDataEnvelope.seal(bytes("5413330089010434D2512F"), reader: &reader)
        let other = try KSN(initialKeyID: ksn.initialKeyID, counter: ksn.counter + 1)
        #expect(throws: CardCryptoError(.decryptionFailed, "")) {
            try CardDataEnvelope.open(ciphertext: ciphertext, ksn: other, bdk: SandboxKeys.bdk)
        }
    }

    @Test func everyAlteredBitIsRejectedBeforeDecrypting() throws {
        var reader = try reader()
        let (ksn, ciphertext) = try CardDataEnvelope.seal(Array(repeating: 0x41, count: 20), reader: &reader)
        for index in ciphertext.indices {
            for bit in 0..<8 {
                var tampered = ciphertext
                tampered[index] ^= UInt8(1) << bit
                #expect(throws: CardCryptoError(.decryptionFailed, "")) {
                    try CardDataEnvelope.open(ciphertext: tampered, ksn: ksn, bdk: SandboxKeys.bdk)
                }
            }
        }
    }

    @Test func malformedLengthsAreRejectedBeforeDecrypting() throws {
        let ksn = try KSN(initialKeyID: initialKeyID, counter: 1)
        for length in [0, 8, 15, 16, 17, 24 + 1, 32] {
            #expect(throws: CardCryptoError(.malformedCiphertext, "")) {
                try CardDataEnvelope.open(
                    ciphertext: Array(repeating: 0, count: length), ksn: ksn, bdk: SandboxKeys.bdk)
            }
        }
    }

    @Test func paddingIsISO9797Method2() {
        #expect(ISO9797Padding.pad([]) == bytes("80000000000000000000000000000000"))
        #expect(ISO9797Padding.pad(Array(repeating: 0xAA, count: 16)).count == 32)
        #expect(ISO9797Padding.unpad(bytes("AABB8000000000000000000000000000")) == [0xAA, 0xBB])
        #expect(ISO9797Padding.unpad(bytes("AABB8000000000000000000000000001")) == nil)
        #expect(ISO9797Padding.unpad(bytes("00000000000000000000000000000000")) == nil)
        #expect(
            ISO9797Padding.unpad(bytes("AABB0000000000000000000000000080"))
                == bytes("AABB00000000000000000000000000"))
    }
}
