import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct TagDictionaryTests {
    @Test func holdsAtLeast250DistinctTags() {
        #expect(TagDictionary.all.count >= 250)
        #expect(Set(TagDictionary.all.map(\.tag)).count == TagDictionary.all.count)
    }

    @Test func everyEntryHasANameAndASaneLength() {
        for info in TagDictionary.all {
            #expect(!info.name.isEmpty, "\(info.tag)")
            #expect(info.length.minimum >= 0 && info.length.minimum <= info.length.maximum, "\(info.tag)")
            #expect(TagDictionary.info(for: info.tag) == info)
        }
    }

    @Test func spotChecksMatchEMVBook3() {
        let ac = TagDictionary.info(for: 0x9F26)
        #expect(ac?.name == "Application Cryptogram")
        #expect(ac?.format == .b)
        #expect(ac?.length == .fixed(8))
        #expect(ac?.source == .card)

        let currency = TagDictionary.info(for: 0x5F2A)
        #expect(currency?.name == "Transaction Currency Code")
        #expect(currency?.format == .n)
        #expect(currency?.length == .fixed(2))  // n 3 takes 2 bytes
        #expect(currency?.source == .terminal)

        #expect(TagDictionary.info(for: 0x95)?.name == "Terminal Verification Results")
        #expect(TagDictionary.info(for: 0x95)?.format == .b)
        #expect(TagDictionary.info(for: 0x95)?.length == .fixed(5))

        let track2 = TagDictionary.info(for: 0x57)
        #expect(track2?.name == "Track 2 Equivalent Data")
        #expect(track2?.format == .b)
        #expect(track2?.length == .upTo(19))

        let amount = TagDictionary.info(for: 0x9F02)
        #expect(amount?.name == "Amount, Authorised (Numeric)")
        #expect(amount?.format == .n)
        #expect(amount?.length == .fixed(6))  // n 12 takes 6 bytes
    }

    @Test func knowsSchemeAndKernelTags() {
        #expect(TagDictionary.info(for: 0xDF8129)?.name == "Outcome Parameter Set")
        #expect(TagDictionary.info(for: 0xDF8129)?.specification == .mastercard)
        #expect(TagDictionary.info(for: 0x9F66)?.name == "Terminal Transaction Qualifiers (TTQ)")
        #expect(TagDictionary.info(for: 0x9F6C)?.name == "Card Transaction Qualifiers (CTQ)")
        #expect(TagDictionary.info(for: 0x9F6E)?.otherNames.contains("Form Factor Indicator (Visa)") == true)
        #expect(TagDictionary.info(for: 0x9F6D) != nil)
        #expect(TagDictionary.info(for: 0x9F5D) != nil)
        #expect(TagDictionary.info(for: 0x9F2A)?.specification == .emvContactless)
    }

    @Test func returnsNilForUnknownTags() {
        #expect(TagDictionary.info(for: 0xDF7F) == nil)
        #expect(TagDictionary.name(of: 0x9F26) == "Application Cryptogram")
    }

    @Test func allIsSortedByTag() {
        let tags = TagDictionary.all.map(\.tag)
        #expect(tags == tags.sorted())
    }

    @Test func lengthRuleChecksByteCounts() {
        #expect(LengthRule.fixed(2).allows(2))
        #expect(!LengthRule.fixed(2).allows(3))
        #expect(LengthRule.range(5...16).allows(16))
        #expect(!LengthRule.range(5...16).allows(4))
        #expect(LengthRule.upTo(19).allows(0))
        #expect(LengthRule.upTo(19).description == "up to 19")
    }
}
