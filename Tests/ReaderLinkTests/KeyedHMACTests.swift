import Crypto
import EMV
import Foundation
import MPOSTestSupport
import Testing

@testable import ReaderLink

/// The link's own HMAC-SHA256 against published vectors and against swift-crypto's `HMAC`.
@Suite(.timeLimit(.minutes(2)))
struct KeyedHMACTests {
    /// RFC 4231 test cases 1, 2 and 6 (a key longer than the block is hashed first).
    @Test(arguments: [
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (String(repeating: "aa", count: 131),
         "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func matchesRFC4231(key: String, message: String, code: String) throws {
        let keyed = KeyedHMAC(key: SymmetricKey(data: try Hex.decode(key)))
        let bytes = try Hex.decode(message)
        #expect(Hex.encode(keyed.authenticationCode(bytes[...])).lowercased() == code)
        // Split anywhere, the parts give the code of the whole.
        let middle = bytes.count / 2
        #expect(Hex.encode(keyed.authenticationCode(bytes[..<middle], bytes[middle...])).lowercased() == code)
    }

    @Test func agreesWithSwiftCryptoOnFrameSizedInputs() {
        let seed = SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment)
        var generator = SplitMix64(seed: seed)
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 128, 300] {
            let key = SymmetricKey(data: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let header = (0..<7).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let body = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Array(HMAC<SHA256>.authenticationCode(for: header + body, using: key))
            #expect(
                KeyedHMAC(key: key).authenticationCode(header, body[...]) == expected,
                "length \(length), seed \(seed) (MPOS_TEST_SEED replays it)")
        }
    }
}
