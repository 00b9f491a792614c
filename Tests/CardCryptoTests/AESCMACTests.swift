import EMV
import Testing

@testable import CardCrypto

/// AES-CMAC against NIST SP 800-38B Appendix D.1 / RFC 4493 section 4 (AES-128 examples).
@Suite(.timeLimit(.minutes(2))) struct AESCMACTests {
    let rfcKey = key("2B7E151628AED2A6ABF7158809CF4F3C")
    let message = bytes(
        "6BC1BEE22E409F96E93D7E117393172A AE2D8A571E03AC9C9EB76FAC45AF8E51"
            + "30C81C46A35CE411E5FBC1191A0A52EF F69F2445DF4F9B17AD2B417BE66C3710")

    @Test func subkeysMatchRFC4493() throws {
        let (k1, k2) = try AESCMAC.subkeys(rfcKey.bytes)
        #expect(Hex.encode(k1) == "FBEED618357133667C85E08F7236A8DE")
        #expect(Hex.encode(k2) == "F7DDAC306AE266CCF90BC11EE46D513B")
    }

    @Test(arguments: [
        (0, "BB1D6929E95937287FA37D129B756746"),
        (16, "070A16B46B4D4144F79BDD9DD04A287C"),
        (40, "DFA66747DE9AE63030CA32611497C827"),
        (64, "51F0BEBF7E3B9D92FC49741779363CFE"),
    ])
    func tagMatchesRFC4493Example(length: Int, expected: String) throws {
        let tag = try AESCMAC.authenticationCode(for: message.prefix(length), key: rfcKey)
        #expect(Hex.encode(tag) == expected)
    }

    @Test func truncatedTagIsTheLeftmostBytes() throws {
        let full = try AESCMAC.authenticationCode(for: message, key: rfcKey)
        let short = try AESCMAC.authenticationCode(for: message, key: rfcKey, truncatedTo: 8)
        #expect(short == Array(full.prefix(8)))
    }

    @Test func differentKeysGiveDifferentTags() throws {
        let other = key("2B7E151628AED2A6ABF7158809CF4F3D")
        #expect(
            try AESCMAC.authenticationCode(for: message, key: rfcKey)
                != AESCMAC.authenticationCode(for: message, key: other))
    }
}
