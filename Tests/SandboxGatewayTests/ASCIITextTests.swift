import Testing

@testable import SandboxGateway

@Suite(.timeLimit(.minutes(2))) struct ASCIITextTests {
    @Test(
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("BEARER \tabc \t", "abc"), ("Bearer  a b ", "a b"),
            ("Bearer ", nil), ("Bearer", nil), ("Basic abc", nil), ("Bearerabc", nil), ("Béarer abc", nil),
            ("Bearer    ", ""), ("", nil),
        ] as [(String, String?)])
    func bearerCredentials(value: String, expected: String?) {
        #expect(ASCIIText.credentials(value, scheme: "Bearer ") == expected)
    }

    @Test func cardTextIsTrimmedASCIIOrNothing() {
        #expect(ASCIIText.trimmedString(Array("  VISA CREDIT \t".utf8)) == "VISA CREDIT")
        #expect(ASCIIText.trimmedString(Array("".utf8)) == "")
        #expect(ASCIIText.trimmedString(Array("   ".utf8)) == "")
        #expect(ASCIIText.trimmedString([0x41, 0xC3, 0xA9]) == nil)
        #expect(ASCIIText.trimmedString(Array("MÜLLER/A".utf8)) == nil)
        #expect(Array(ASCIIText.trimmed([0x20, 0x41, 0x09, 0x42, 0x20])) == [0x41, 0x09, 0x42])
    }
}
