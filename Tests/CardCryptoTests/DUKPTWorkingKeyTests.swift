import EMV
import Testing

@testable import CardCrypto

/// Working keys per usage: the derivation-data layout of X9.24-3-2017 6.3.2, key separation, and
/// agreement between the reader and the host.
@Suite(.timeLimit(.minutes(2))) struct DUKPTWorkingKeyTests {
    @Test func initialKeyDerivationDataFollowsTheStandardLayout() {
        let data = DUKPTDerivationData.initialKey(initialKeyID: X924Vectors.initialKeyID)
        // Version 01, block counter 01, usage 8001, algorithm 0002 (AES-128), length 0080, IKID.
        #expect(Hex.encode(data.bytes) == "01018001000200801234567890123456")
    }

    @Test func workingKeyDerivationDataCarriesUsageDerivationIDAndCounter() {
        let data = DUKPTDerivationData.transaction(
            usage: DUKPTKeyUsage.pinEncryption.rawValue, initialKeyID: X924Vectors.initialKeyID,
            counter: 0x0001_FFFE)
        #expect(Hex.encode(data.bytes) == "0101100000020080901234560001FFFE")
    }

    @Test func keyUsageIndicatorsAreTheStandardValues() {
        let values = DUKPTKeyUsage.allCases.map { String($0.rawValue, radix: 16) }
        #expect(values == ["2", "1000", "2000", "2001", "2002", "3000", "3001", "3002"])
    }

    @Test func workingKeyIsAESOfTheDerivationDataUnderTheTransactionKey() throws {
        let ksn = try KSN(initialKeyID: X924Vectors.initialKeyID, counter: 1)
        let transaction = try DUKPT.transactionKey(bdk: X924Vectors.bdk, ksn: ksn)
        for usage in DUKPTKeyUsage.allCases {
            let data = DUKPTDerivationData.transaction(
                usage: usage.rawValue, initialKeyID: X924Vectors.initialKeyID, counter: 1)
            let expected = try AESBlock.encrypt(data.bytes, key: bytes("4F21B565BAD9835E112B6465635EAE44"))
            #expect(try transaction.workingKey(usage).bytes == expected)
        }
    }

    @Test func everyUsageGivesADifferentKey() throws {
        let ksn = try KSN(initialKeyID: X924Vectors.initialKeyID, counter: 5)
        let keys = try DUKPTKeyUsage.allCases.map {
            try DUKPT.workingKey(bdk: X924Vectors.bdk, ksn: ksn, usage: $0)
        }
        #expect(Set(keys.map(\.hexForTesting)).count == DUKPTKeyUsage.allCases.count)
    }

    @Test func readerAndHostAgreeOnWorkingKeysForManyCounters() throws {
        var reader = try DUKPTReader(bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID)
        let ik = try DUKPT.initialKey(bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID)
        for _ in 0..<300 {
            let (ksn, key) = try reader.nextTransaction()
            let host = try DUKPT.workingKey(initialKey: ik, ksn: ksn, usage: .dataEncryptionEncrypt)
            #expect(try key.workingKey(.dataEncryptionEncrypt) == host)
        }
    }

    @Test func readerAndHostAgreeAcrossSixteenBitSkips() throws {
        // 0x0000FFFF has 16 one-bits: its successor is 0x00010000, not 0x0000FFFF + 1's children.
        var reader = try DUKPTReader(
            bdk: X924Vectors.bdk, initialKeyID: X924Vectors.initialKeyID, counter: 0xFFF0)
        var previous: UInt32 = 0
        for _ in 0..<64 {
            let (ksn, key) = try reader.nextTransaction()
            #expect(ksn.counter > previous)
            #expect(DUKPT.isValidCounter(ksn.counter))
            previous = ksn.counter
            let host = try DUKPT.transactionKey(bdk: X924Vectors.bdk, ksn: ksn)
            #expect(key.derivationKey == host.derivationKey)
        }
    }
}
