import EMV
import Testing

@testable import CardCrypto

/// ICC master key (EMV Book 2 A1.4.1, AES) and session key (A1.3.1) derivation.
@Suite(.timeLimit(.minutes(2))) struct EMVKeyDerivationTests {
    @Test func shortPANAndPSNAreLeftPaddedToSixteenDigits() throws {
        let y = try EMVKeyDerivation.diversificationBlock(panDigits: "123456789012", psn: 0x01)
        #expect(Hex.encode(y) == "0012345678901201")
    }

    @Test func longPANKeepsTheRightmostSixteenDigitsOfPANAndPSN() throws {
        // The Book 2 worked example layout: PAN 5656781234567891, PSN 01 → Y = 5678123456789101.
        let y = try EMVKeyDerivation.diversificationBlock(panDigits: "5656781234567891", psn: 0x01)
        #expect(Hex.encode(y) == "5678123456789101")
        let nineteen = try EMVKeyDerivation.diversificationBlock(panDigits: "6799998900000060019", psn: 0x00)
        #expect(Hex.encode(nineteen) == "9890000006001900")
    }

    @Test func masterKeyEnciphersYAndItsComplementInOneBlock() throws {
        let mk = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: PAN("5656781234567891")!, panSequenceNumber: 0x01)
        let expected = try AESBlock.encrypt(
            bytes("5678123456789101 A987EDCBA9876EFE"), key: SandboxKeys.imkAC.bytes)
        #expect(mk.bytes == expected)
    }

    @Test func missingPSNCountsAsZeroZero() throws {
        let absent = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: EMVTestData.pan, panSequenceNumber: nil)
        let zero = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: EMVTestData.pan, panSequenceNumber: 0x00)
        let one = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: EMVTestData.pan, panSequenceNumber: 0x01)
        #expect(absent == zero)
        #expect(absent != one)
    }

    @Test func nonBCDSequenceNumberIsRejected() {
        #expect(throws: CardCryptoError(.invalidPAN, "")) {
            try EMVKeyDerivation.iccMasterKey(
                issuerMasterKey: SandboxKeys.imkAC, pan: EMVTestData.pan, panSequenceNumber: 0x1A)
        }
    }

    @Test func sessionKeyEnciphersATCThenF0ThenZeros() throws {
        let mk = key("00112233445566778899AABBCCDDEEFF")
        let sk = try EMVKeyDerivation.sessionKey(iccMasterKey: mk, atc: 0x1234)
        let expected = try AESBlock.encrypt(bytes("1234F000000000000000000000000000"), key: mk.bytes)
        #expect(sk.bytes == expected)
    }

    @Test func eachATCGivesADifferentSessionKey() throws {
        let keys = try (0..<50).map { try EMVTestData.sessionKey(atc: UInt16($0)) }
        #expect(Set(keys.map(\.hexForTesting)).count == 50)
    }
}
