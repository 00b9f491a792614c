import EMV
import Testing

@testable import CardCrypto

/// The published sandbox test keys.
@Suite(.timeLimit(.minutes(2))) struct SandboxKeysTests {
    @Test func documentedHexMatchesTheConstants() {
        #expect(SandboxKeys.documentedHex["BDK"] == SandboxKeys.bdk.hexForTesting)
        #expect(SandboxKeys.documentedHex["BDK ID"] == Hex.encode(SandboxKeys.bdkID))
        #expect(SandboxKeys.documentedHex["IMK-AC"] == SandboxKeys.imkAC.hexForTesting)
        #expect(SandboxKeys.documentedHex.count == 3)
    }

    @Test func keysAreNeitherZeroNorTheStandardTestBDK() {
        #expect(SandboxKeys.bdk != key("00000000000000000000000000000000"))
        #expect(SandboxKeys.bdk != X924Vectors.bdk)
        #expect(SandboxKeys.bdk != key("FEDCBA9876543210F1F0EEDDCCBBAA99"))
        #expect(SandboxKeys.imkAC != SandboxKeys.bdk)
        #expect(SandboxKeys.bdkID.count == 4)
    }

    @Test func initialKeyIDStartsWithTheBDKID() {
        let id = SandboxKeys.initialKeyID(derivationID: 0x0102_0304)
        #expect(id == SandboxKeys.bdkID + [1, 2, 3, 4])
    }
}
