import Foundation
import MPOSTestSupport
import TerminalAPI
import Testing

/// Adyen's local encryption: key derivation, test vectors computed outside Swift, the
/// decryption of a message Adyen's own library produced, and every refusal.
@Suite(.timeLimit(.minutes(2)))
struct NexoCryptoTests {
    /// The key of Adyen's public library tests, which produced Fixtures' payment-local-success.json.
    private let key = NexoSecurityKey(
        keyIdentifier: "CryptoKeyIdentifier12345", keyVersion: 1, passphrase: "p@ssw0rd123456")

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func keyMaterialMatchesPBKDF2ComputedIndependently() {
        // openssl kdf -keylen 80 -kdfopt digest:SHA1 -kdfopt pass:p@ssw0rd123456 \
        //   -kdfopt salt:AdyenNexoV1Salt -kdfopt iter:4000 PBKDF2
        // (and Python: hashlib.pbkdf2_hmac('sha1', b'p@ssw0rd123456', b'AdyenNexoV1Salt', 4000, 80))
        let material = key.deriveKeyMaterial()
        #expect(hex(material.hmacKey) == "733636253b5b98f9a483b1a678d73a58dab2accafbc029ecbe12d60eaa909e32")
        #expect(hex(material.cipherKey) == "cf2c822761b9f5305bf69970bfa7b659a6724a119db21f8b0e949779f2ea022c")
        #expect(hex(material.iv) == "bb9ba8092e6027c735398dc65977c051")
    }

    @Test func sealingMatchesAESAndHMACComputedIndependently() {
        // Python `cryptography`: AES-256-CBC, PKCS7, key = material[32:64],
        // iv = material[64:80] XOR bytes(range(16)); HMAC-SHA256(material[0:32], plaintext).
        let sealed = NexoCrypto(key: key).seal(Data(#"{"SaleToPOIRequest":{}}"#.utf8), nonce: Array(0..<16))
        #expect(sealed.blob == "bCSdA/21eXKqHofUI2X2/FK/8pALGaa7jk+iEbOswgU=")
        #expect(sealed.trailer.hmac == "PaoVII1KDWES/Ef3rwPZX3A6K3pCvN6NTyjsp5VKQWc=")
        #expect(sealed.trailer.nonce == "AAECAwQFBgcICQoLDA0ODw==")
        #expect(sealed.trailer.keyIdentifier == "CryptoKeyIdentifier12345")
        #expect(sealed.trailer.keyVersion == 1)
        #expect(sealed.trailer.adyenCryptoVersion == 1)
    }

    @Test func decryptsTheResponseAdyensLibraryEncrypted() throws {
        let data = try Fixture.data("adyen-java-api-library/payment-local-success.json")
        let secured = try NexoCoder.decodeResponse(data)
        #expect(secured.paymentResponse == nil)
        let response = try NexoCrypto(key: key).decrypt(secured)
        let payment = try #require(response.paymentResponse)
        #expect(payment.response.result == .success)
        #expect(payment.poiData.poiTransactionID.transactionID == "4r7i001557325515012.8815573255107661")
        #expect(response.messageHeader.poiID == "P400Plus-275039202")
    }

    @Test func encryptedRequestsRoundTripWithRandomNonces() throws {
        var generator = SplitMix64(
            seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        let plain = try NexoCoder.decodeRequest(
            Fixture.data("adyen-mock-terminal-api/payment__paymentRequest.json"))
        let crypto = NexoCrypto(key: key)
        let first = crypto.encrypt(plain, using: &generator)
        let second = crypto.encrypt(plain, using: &generator)
        #expect(first.nexoBlob != second.nexoBlob)
        #expect(first.paymentRequest == nil)
        #expect(first.messageHeader == plain.messageHeader)
        // The encrypted message survives the wire and decrypts to the original.
        let received = try NexoCoder.decodeRequest(NexoCoder.encode(first))
        #expect(try crypto.decrypt(received) == plain)
    }

    private func sealedRequest(_ crypto: NexoCrypto) throws -> SaleToPOIRequest {
        var generator = SplitMix64(seed: 7)
        let plain = try NexoCoder.decodeRequest(
            Fixture.data("adyen-mock-terminal-api/abortPayment__abortPaymentRequest.json"))
        return crypto.encrypt(plain, using: &generator)
    }

    private func refusal(_ crypto: NexoCrypto, _ message: SaleToPOIRequest) -> NexoError? {
        do {
            _ = try crypto.decrypt(message)
            return nil
        } catch {
            return error
        }
    }

    @Test func anUnknownKeyOrVersionIsRefusedBeforeDecrypting() throws {
        let message = try sealedRequest(NexoCrypto(key: key))
        let other = NexoCrypto(
            key: NexoSecurityKey(keyIdentifier: "OtherKey", keyVersion: 1, passphrase: "p@ssw0rd123456"))
        #expect(refusal(other, message)?.code == .unknownKey)
        #expect(refusal(other, message)?.field == "SaleToPOIRequest.SecurityTrailer.KeyIdentifier")
        let rotated = NexoCrypto(
            key: NexoSecurityKey(
                keyIdentifier: "CryptoKeyIdentifier12345", keyVersion: 2, passphrase: "p@ssw0rd123456"))
        #expect(refusal(rotated, message)?.code == .wrongKeyVersion)
        // A key being rotated out is still accepted when configured beside the new one.
        let both = NexoCrypto(
            key: NexoSecurityKey(keyIdentifier: "CryptoKeyIdentifier12345", keyVersion: 2, passphrase: "new"),
            alsoAccepted: [key])
        #expect(try both.decrypt(message).abortRequest?.abortReason == "MerchantAbort")
    }

    @Test func aChangedMessageFailsItsHMAC() throws {
        let crypto = NexoCrypto(key: key)
        var message = try sealedRequest(crypto)
        // Another nonce changes only the first plaintext block, so the padding stays valid.
        message.securityTrailer?.nonce = Data(repeating: 0x55, count: 16).base64EncodedString()
        #expect(refusal(crypto, message)?.code == .hmacMismatch)
        #expect(refusal(crypto, message)?.field == "SaleToPOIRequest.SecurityTrailer.Hmac")
    }

    @Test func aPlainHeaderChangedOnTheWayIsRefused() throws {
        let crypto = NexoCrypto(key: key)
        var message = try sealedRequest(crypto)
        // The HMAC covers only the plaintext: a message re-addressed to another terminal
        // still decrypts, and only the comparison of the two headers catches it.
        message.messageHeader.poiID = "V400m-999999999"
        #expect(refusal(crypto, message)?.code == .headerMismatch)
        #expect(refusal(crypto, message)?.field == "SaleToPOIRequest.MessageHeader")
    }

    @Test func aDamagedLastBlockFailsItsPadding() throws {
        let crypto = NexoCrypto(key: key)
        var message = try sealedRequest(crypto)
        var blob = try #require(Data(base64Encoded: message.nexoBlob ?? ""))
        // Flipping the last byte of the next-to-last block flips the padding's last byte,
        // which then no longer equals the padding length.
        let index = blob.count - 17
        blob[index] ^= 0x80
        message.nexoBlob = blob.base64EncodedString()
        #expect(refusal(crypto, message)?.code == .badPadding)
    }

    @Test func malformedTrailersAndPlainMessagesAreRefused() throws {
        let crypto = NexoCrypto(key: key)
        let message = try sealedRequest(crypto)
        var shortNonce = message
        shortNonce.securityTrailer?.nonce = "AAEC"
        #expect(refusal(crypto, shortNonce)?.code == .invalidEncoding)
        var partial = message
        partial.nexoBlob = "AAECAwQ="
        #expect(refusal(crypto, partial)?.code == .invalidEncoding)
        var version = message
        version.securityTrailer?.adyenCryptoVersion = 2
        #expect(refusal(crypto, version)?.code == .unsupportedCryptoVersion)
        let plain = try NexoCoder.decodeRequest(
            Fixture.data("adyen-mock-terminal-api/abortPayment__abortPaymentRequest.json"))
        #expect(refusal(crypto, plain)?.code == .encryptionExpected)
    }
}
