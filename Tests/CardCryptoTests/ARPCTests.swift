import CardCrypto
import Testing

/// ARPC Method 2: the issuer's response cryptogram and the card's check of it.
@Suite(.timeLimit(.minutes(2))) struct ARPCTests {
    let arqc = bytes("8A3C5F2E91B0D447")
    let csu = bytes("00820000")

    @Test func cardVerifiesWhatTheIssuerGenerated() throws {
        let sk = try EMVTestData.sessionKey()
        let arpc = try ARPC.generate(arqc: arqc, csu: csu, sessionKey: sk)
        #expect(arpc.count == 4)
        #expect(ARPC.verify(arpc: arpc, arqc: arqc, csu: csu, sessionKey: sk))
    }

    @Test func arpcIsTheLeftmostFourBytesOfCMACOverARQCCSUAndProprietaryData() throws {
        let sk = try EMVTestData.sessionKey()
        let proprietary = bytes("0102")
        let cmac = try AESCMAC.authenticationCode(for: arqc + csu + proprietary, key: sk)
        #expect(
            try ARPC.generate(arqc: arqc, csu: csu, proprietary: proprietary, sessionKey: sk)
                == Array(cmac.prefix(4)))
    }

    @Test func issuerAuthenticationDataIsARPCThenCSUAndVerifies() throws {
        let sk = try EMVTestData.sessionKey()
        let tag91 = try ARPC.issuerAuthenticationData(arqc: arqc, csu: csu, sessionKey: sk)
        #expect(tag91.count == 8)
        #expect(Array(tag91.suffix(4)) == csu)
        #expect(ARPC.verify(issuerAuthenticationData: tag91, arqc: arqc, sessionKey: sk))
        let withProprietary = try ARPC.issuerAuthenticationData(
            arqc: arqc, csu: csu, proprietary: bytes("AABB"), sessionKey: sk)
        #expect(ARPC.verify(issuerAuthenticationData: withProprietary, arqc: arqc, sessionKey: sk))
    }

    @Test func anyChangeFailsVerification() throws {
        let sk = try EMVTestData.sessionKey()
        let tag91 = try ARPC.issuerAuthenticationData(arqc: arqc, csu: csu, sessionKey: sk)
        for index in tag91.indices {
            var tampered = tag91
            tampered[index] ^= 0x10
            #expect(ARPC.verify(issuerAuthenticationData: tampered, arqc: arqc, sessionKey: sk) == false)
        }
        var otherARQC = arqc
        otherARQC[0] ^= 0x01
        #expect(ARPC.verify(issuerAuthenticationData: tag91, arqc: otherARQC, sessionKey: sk) == false)
        #expect(
            ARPC.verify(
                issuerAuthenticationData: tag91, arqc: arqc, sessionKey: try EMVTestData.sessionKey(atc: 1))
                == false)
    }

    @Test func wrongLengthsAreRejected() throws {
        let sk = try EMVTestData.sessionKey()
        #expect(throws: CardCryptoError(.invalidDataElementLength, "")) {
            try ARPC.generate(arqc: Array(arqc.prefix(7)), csu: csu, sessionKey: sk)
        }
        #expect(throws: CardCryptoError(.invalidDataElementLength, "")) {
            try ARPC.generate(arqc: arqc, csu: [0], sessionKey: sk)
        }
        #expect(throws: CardCryptoError(.invalidDataElementLength, "")) {
            try ARPC.generate(
                arqc: arqc, csu: csu, proprietary: Array(repeating: 0, count: 9), sessionKey: sk)
        }
        #expect(ARPC.verify(issuerAuthenticationData: [1, 2, 3], arqc: arqc, sessionKey: sk) == false)
    }
}
