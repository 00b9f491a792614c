import Testing

@testable import EMV

/// What an app prints for TLV data: tag, name and value a person can read, card data masked.
@Suite(.timeLimit(.minutes(1)))
struct TLVDescriptionTests {
    /// A READ RECORD template holding a PAN, track 2 and an amount.
    static let record: [UInt8] =
        [0x70, 0x28]
        + [0x5A, 0x08, 0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11]
        + [0x57, 0x10, 0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0xD2, 0x51, 0x22, 0x01, 0x12, 0x34, 0x56, 0x7F]
        + [0x9F, 0x02, 0x06, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34]
        + [0x5F, 0x2A, 0x00]

    @Test func elementsPrintTagNameAndValueWithCardDataMasked() throws {
        let tree = try TLVTree(decoding: Self.record)
        let template = try #require(tree.element(at: [0x70]))
        #expect(template.description == "70 READ RECORD Response Message Template: 4 objects")
        #expect(
            tree.element(at: [0x70, 0x5A])?.description
                == "5A Application Primary Account Number (PAN): 411111******1111")
        #expect(tree.element(at: [0x70, 0x9F02])?.description == "9F02 Amount, Authorised (Numeric): 000000001234")
        #expect(tree.element(at: [0x70, 0x5F2A])?.description == "5F2A Transaction Currency Code: empty")
        #expect(
            tree.element(at: [0x70, 0x9F02])?.debugDescription
                == "TLVTree.Element(9F02 Amount, Authorised (Numeric): 000000001234; path 70/9F02, 6 bytes)")
        #expect(tree.description == "TLVTree(5 objects, 1 at the top, 42 bytes)")
    }

    @Test func noDescriptionCarriesTheFullPANOrTrack2() throws {
        let tree = try TLVTree(decoding: Self.record)
        let printed = tree.roots.flatMap { [$0] + Array($0.children) }.map { "\($0) \(String(reflecting: $0))" }
        let track = try #require(tree.element(at: [0x70, 0x57]))
        #expect(track.description == "57 Track 2 Equivalent Data: \(SensitiveData.displayValue(0x57, track.value))")
        for text in printed + [tree.description] {
            #expect(!text.contains("4111111111111111"), "\(text)")
            #expect(!text.contains("1234567"), "\(text)")
        }
    }
}
