import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct EMVTagTests {
    @Test func parsesMultiByteTagsFromHex() {
        #expect(EMVTag(hex: "9F26")?.rawValue == 0x9F26)
        #expect(EMVTag(hex: "95")?.byteCount == 1)
        #expect(EMVTag(hex: "9F") == nil)  // announces a second byte that is missing
        #expect(EMVTag(hex: "9526") == nil)  // single-byte tag followed by junk
        #expect(EMVTag(hex: "DF8101")?.hex == "DF8101")
        #expect(EMVTag(hex: "DF0101") == nil)  // continuation bit missing on middle byte
    }

    @Test func knowsConstructedAndClass() {
        #expect(EMVTag(rawValue: 0x77).isConstructed)
        #expect(EMVTag(rawValue: 0x70).isConstructed)
        #expect(!EMVTag(rawValue: 0x9F26).isConstructed)
        #expect(EMVTag(rawValue: 0x5F2A).tagClass == .application)
        #expect(EMVTag(rawValue: 0xBF0C).isConstructed)
    }

    @Test func hexRoundTrips() throws {
        let bytes = try Hex.decode("9f 26:08\n7B")
        #expect(bytes == [0x9F, 0x26, 0x08, 0x7B])
        #expect(Hex.encode(bytes) == "9F26087B")
        #expect(throws: HexError.oddNumberOfDigits) { try Hex.decode("ABC") }
        #expect(throws: HexError.invalidCharacter(offset: 2, character: "Z")) { try Hex.decode("AAZZ") }
    }
}
