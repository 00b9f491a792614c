import CardCrypto
import Testing

/// The module's error type: stable codes and no sensitive data.
@Suite(.timeLimit(.minutes(2))) struct CardCryptoErrorTests {
    let kinds: [CardCryptoError.Kind] = [
        .invalidKeyLength, .invalidInitialKeyID, .invalidKSN, .invalidTransactionCounter, .counterExhausted,
        .malformedCiphertext, .decryptionFailed, .missingDataElement, .invalidDataElementLength, .invalidPAN,
        .cryptoFailure,
    ]

    @Test func codesAreUniqueAndInTheModulesBlock() {
        #expect(Set(kinds.map(\.code)).count == kinds.count)
        #expect(kinds.allSatisfy { (6100...6199).contains($0.code) })
        #expect(CardCryptoError.Kind.decryptionFailed.code == 6107)
    }

    @Test func errorsCompareByKind() {
        #expect(CardCryptoError(.invalidPAN, "a") == CardCryptoError(.invalidPAN, "b"))
        #expect(CardCryptoError(.invalidPAN, "a") != CardCryptoError(.invalidKSN, "a"))
    }

    @Test func messagesNeverContainKeysOrPlaintext() throws {
        let secret = "00112233445566778899AABBCCDDEEF"  // 31 digits: rejected, must not be echoed
        do {
            _ = try AES128Key(hex: secret)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains(secret) == false)
            #expect(error.code == 6101)
        }
        var reader = try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 9))
        let (ksn, ciphertext) = try CardDataEnvelope.seal(bytes("4761739001010010"), reader: &reader)
        do {
            _ = try CardDataEnvelope.open(
                ciphertext: ciphertext, ksn: ksn, bdk: key("0F0E0D0C0B0A09080706050403020100"))
        } catch {
            #expect(error.description.contains("4761739001010010") == false)
            #expect(error.description.contains(SandboxKeys.bdkHex) == false)
        }
    }

    @Test func keysNeverPrintTheirBytes() {
        #expect(String(describing: SandboxKeys.bdk).contains(SandboxKeys.bdkHex) == false)
        #expect(SandboxKeys.bdk.checkValue.count == 3)
    }
}
