import EMV
import Testing

@testable import CardCrypto

/// AES DUKPT against the ANSI X9.24-3-2017 supplement test vectors for an AES-128 BDK
/// (BDK FEDCBA9876543210F1F1F1F1F1F1F1F1, Initial Key ID 1234567890123456).
@Suite(.timeLimit(.minutes(2))) struct DUKPTVectorTests {
    @Test func initialKeyMatchesTheStandard() throws {
        let ik = try DUKPT.initialKey(bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID)
        #expect(ik.hexForTesting == X924Vectors.initialKey)
    }

    @Test(arguments: X924Vectors.derivationKeys)
    func hostDerivationKeyMatchesTheStandard(counter: UInt32, expected: String) throws {
        let ksn = try KSN(initialKeyID: X924Vectors.initialKeyID, counter: counter)
        let key = try DUKPT.transactionKey(bdk: X924Vectors.bdk, ksn: ksn)
        #expect(Hex.encode(key.derivationKey) == expected)
    }

    @Test func readerProducesTheFirstEightKSNsAndKeys() throws {
        var reader = try DUKPTReader(bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID)
        for (counter, expected) in X924Vectors.derivationKeys.prefix(8) {
            let (ksn, key) = try reader.nextTransaction()
            #expect(ksn.hex == "1234567890123456" + String(format8(counter)))
            #expect(Hex.encode(key.derivationKey) == expected)
        }
    }

    @Test func readerSkipsCounter1FFFFAsTheStandardDoes() throws {
        var reader = try DUKPTReader(
            bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID, counter: 0x0001_FFFE)
        let expected = X924Vectors.derivationKeys.filter { (0x0001_FFFE...0x0002_0001).contains($0.counter) }
        for (counter, keyHex) in expected {
            let (ksn, key) = try reader.nextTransaction()
            #expect(ksn.counter == counter)
            #expect(Hex.encode(key.derivationKey) == keyHex)
        }
    }

    @Test func readerEndsWithTheLastFourCountersThenIsExhausted() throws {
        var reader = try DUKPTReader(
            bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID, counter: 0xFFFE_2000)
        for (counter, keyHex) in X924Vectors.derivationKeys.suffix(4) {
            let (ksn, key) = try reader.nextTransaction()
            #expect(ksn.counter == counter)
            #expect(Hex.encode(key.derivationKey) == keyHex)
        }
        #expect(reader.isExhausted)
        #expect(throws: CardCryptoError(.counterExhausted, "")) { try reader.nextTransaction() }
    }

    private func format8(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
