import Testing

@testable import MPOSKit

/// Text to the printer's code page: what the page has is sent as is, the rest is
/// transliterated, and what cannot be is printed as "?" and reported.
@Suite(.timeLimit(.minutes(1))) struct EscPosTransliterationTests {
    @Test func germanAndFrenchLettersAndTheEuroSignAreInCP858() {
        let result = CodePage.cp858.encode("äöüÄÖÜß éèà €")
        #expect(
            result.bytes == [0x84, 0x94, 0x81, 0x8E, 0x99, 0x9A, 0xE1, 0x20, 0x82, 0x8A, 0x85, 0x20, 0xD5])
        #expect(result.unmapped.isEmpty)
    }

    @Test func cp437HasTheLettersButSpellsTheEuro() {
        let result = CodePage.cp437.encode("Käse ß €5")
        #expect(result.bytes == [0x4B, 0x84, 0x73, 0x65, 0x20, 0xE1, 0x20, 0x45, 0x55, 0x52, 0x35])
        #expect(result.unmapped.isEmpty)
        // 0xD5 is the dotless i in CP850, so the Datecs page spells the euro too.
        #expect(CodePage.cp850.encode("€ ı").bytes == [0x45, 0x55, 0x52, 0x20, 0xD5])
    }

    /// The documented fallback table, each entry on a page that lacks the character.
    @Test(arguments: [
        ("ł", "l"), ("Ł", "L"), ("—", "-"), ("–", "-"), ("“", "\""), ("”", "\""), ("„", "\""),
        ("‘", "'"), ("’", "'"), ("…", "..."), ("•", "*"), ("™", "TM"), ("œ", "oe"), ("ø", "o"),
    ])
    func theFallbackTableReplacesWhatCP437Lacks(_ character: String, _ replacement: String) {
        let result = CodePage.cp437.encode(character)
        #expect(result.bytes == Array(replacement.utf8))
        #expect(result.unmapped.isEmpty)
    }

    @Test func aPageThatHasTheCharacterIsNotTransliterated() {
        #expect(CodePage.cp858.encode("ø").bytes == [0x9B])
        #expect(CodePage.cp437.encode("ß").bytes == [0xE1])
    }

    @Test func accentedLettersFallBackToTheirBaseLetter() {
        // ő, ž, ą, ş are in neither page.
        #expect(CodePage.cp858.encode("őžąş").bytes == Array("ozas".utf8))
        #expect(CodePage.cp858.encode("ŽĄ").unmapped.isEmpty)
    }

    @Test func whatCannotBeMappedPrintsAQuestionMarkAndIsReported() {
        let result = CodePage.cp858.encode("A漢B😀C漢")
        #expect(result.bytes == [0x41, 0x3F, 0x42, 0x3F, 0x43, 0x3F])
        #expect(result.unmapped == ["漢", "😀"])
    }

    @Test func controlCharactersNeverReachThePrinter() {
        let result = CodePage.cp858.encode("a\u{1B}@b\u{1D}V")
        #expect(result.bytes == [0x61, 0x3F, 0x40, 0x62, 0x3F, 0x56])
        #expect(result.unmapped == ["\u{1B}", "\u{1D}"])
    }

    @Test func theEncoderCollectsUnmappedCharactersAcrossLines() {
        var job = EscPosEncoder(profile: .paper58mm)
        job.line("Ключ")
        job.line("漢 К")
        #expect(job.unmappedCharacters == ["К", "л", "ю", "ч", "漢"])
        #expect(job.bytes == [0x3F, 0x3F, 0x3F, 0x3F, 0x0A, 0x3F, 0x20, 0x3F, 0x0A])
    }

    @Test(arguments: [CodePage.cp437, .cp850, .cp858])
    func everyByteOfThePageEncodesBackToItself(_ page: CodePage) {
        for byte in UInt8(0x20)...0xFF where byte != 0x7F {
            #expect(page.encode(String(page.character(for: byte))).bytes == [byte], "\(page) \(byte)")
        }
    }
}
