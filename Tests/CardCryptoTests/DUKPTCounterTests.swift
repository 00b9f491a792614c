import CardCrypto
import Testing

/// The transaction counter rules of X9.24-3-2017 6.1 and 6.4.
@Suite(.timeLimit(.minutes(2))) struct DUKPTCounterTests {
    @Test func counterZeroAndCountersWithSeventeenOneBitsAreInvalid() {
        #expect(DUKPT.isValidCounter(0) == false)
        #expect(DUKPT.isValidCounter(0x0001_FFFF) == false)
        #expect(DUKPT.isValidCounter(0x0001_FFFE))
        #expect(DUKPT.isValidCounter(0xFFFF_0000))
        #expect(DUKPT.isValidCounter(0xFFFF_8000) == false)
    }

    @Test func nextCounterIncrementsBelowSixteenOneBits() {
        #expect(DUKPT.counter(after: 1) == 2)
        #expect(DUKPT.counter(after: 0x0000_7FFF) == 0x0000_8000)
    }

    @Test func nextCounterSkipsByTheLowestBitAtSixteenOneBits() {
        #expect(DUKPT.counter(after: 0x0000_FFFF) == 0x0001_0000)
        #expect(DUKPT.counter(after: 0x0001_FFFE) == 0x0002_0000)
        #expect(DUKPT.counter(after: 0xFFFE_8000) == 0xFFFF_0000)
    }

    @Test func theLastCounterHasNoSuccessor() {
        #expect(DUKPT.counter(after: 0xFFFF_0000) == nil)
    }

    @Test func everyCounterTheReaderUsesIsValidAndIncreasing() throws {
        var reader = try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 7))
        var previous: UInt32 = 0
        for _ in 0..<1000 {
            let counter = try reader.nextTransaction().ksn.counter
            #expect(counter == (previous == 0 ? 1 : DUKPT.counter(after: previous)))
            previous = counter
        }
    }

    @Test func hostRejectsAnUnusableCounter() throws {
        let ksn = try KSN(initialKeyID: SandboxKeys.initialKeyID(derivationID: 1), counter: 0x0001_FFFF)
        #expect(throws: CardCryptoError(.invalidTransactionCounter, "")) {
            try DUKPT.workingKey(bdk: SandboxKeys.bdk, ksn: ksn, usage: .pinEncryption)
        }
        let zero = try KSN(initialKeyID: SandboxKeys.initialKeyID(derivationID: 1), counter: 0)
        #expect(throws: CardCryptoError(.invalidTransactionCounter, "")) {
            try DUKPT.transactionKey(bdk: SandboxKeys.bdk, ksn: zero)
        }
    }

    @Test func readerRefusesToStartAtAnUnusableCounter() {
        #expect(throws: CardCryptoError(.invalidTransactionCounter, "")) {
            try DUKPTReader(
                bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 1), counter: 0)
        }
    }

    @Test func readerRefusesAShortInitialKeyID() {
        #expect(throws: CardCryptoError(.invalidInitialKeyID, "")) {
            try DUKPTReader(bdk: SandboxKeys.bdk, initialKeyID: [1, 2, 3])
        }
    }

    @Test func exhaustedReaderKeepsFailing() throws {
        var reader = try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 1),
            counter: 0xFFFF_0000)
        #expect(reader.isExhausted == false)
        _ = try reader.nextTransaction()
        for _ in 0..<2 {
            #expect(throws: CardCryptoError(.counterExhausted, "")) { try reader.nextTransaction() }
        }
        #expect(reader.description == "DUKPTReader(exhausted)")
    }
}
