import CardCrypto
import EMV
import Testing

/// ARQC/TC/AAC generation on the card side and verification on the issuer side.
@Suite(.timeLimit(.minutes(2))) struct ApplicationCryptogramTests {
    @Test func issuerVerifiesWhatTheCardGenerated() throws {
        // Card side: its personalised master key and the ATC.
        let mk = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: EMVTestData.pan,
            panSequenceNumber: EMVTestData.panSequenceNumber)
        let input = try CryptogramInput(values: EMVTestData.values)
        let arqc = try generateCryptogram(
            input: input, sessionKey: EMVKeyDerivation.sessionKey(iccMasterKey: mk, atc: input.atc))
        #expect(arqc.count == 8)
        // Issuer side: from the IMK.
        #expect(verifyCryptogram(arqc, input: input, sessionKey: try EMVTestData.sessionKey(atc: input.atc)))
    }

    @Test func cryptogramIsTheLeftmostEightBytesOfTheCMAC() throws {
        let input = try CryptogramInput(values: EMVTestData.values)
        let sk = try EMVTestData.sessionKey()
        let cmac = try AESCMAC.authenticationCode(for: input.bytes, key: sk)
        #expect(try generateCryptogram(input: input, sessionKey: sk) == Array(cmac.prefix(8)))
    }

    @Test(arguments: CryptogramInput.layout.map(\.tag))
    func flippedBitInAnyTagFailsVerification(tag: EMVTag) throws {
        let sk = try EMVTestData.sessionKey()
        let arqc = try generateCryptogram(input: CryptogramInput(values: EMVTestData.values), sessionKey: sk)
        for bit in 0..<8 {
            var values = EMVTestData.values
            values[tag]![values[tag]!.count - 1] ^= UInt8(1 << bit)
            #expect(
                verifyCryptogram(arqc, input: try CryptogramInput(values: values), sessionKey: sk) == false)
        }
    }

    @Test func wrongSessionKeyOrWrongLengthFailsVerification() throws {
        let input = try CryptogramInput(values: EMVTestData.values)
        let arqc = try generateCryptogram(input: input, sessionKey: EMVTestData.sessionKey())
        #expect(
            verifyCryptogram(arqc, input: input, sessionKey: try EMVTestData.sessionKey(atc: 0x002B)) == false
        )
        #expect(
            verifyCryptogram(arqc.prefix(7), input: input, sessionKey: try EMVTestData.sessionKey()) == false)
        #expect(verifyCryptogram(arqc + [0], input: input, sessionKey: try EMVTestData.sessionKey()) == false)
    }

    @Test func cryptogramTypeComesFromTheCID() {
        #expect(CryptogramType(cryptogramInformationData: 0x80) == .arqc)
        #expect(CryptogramType(cryptogramInformationData: 0x40) == .tc)
        #expect(CryptogramType(cryptogramInformationData: 0x01) == .aac)
        #expect(CryptogramType(cryptogramInformationData: 0xC0) == nil)
    }
}
