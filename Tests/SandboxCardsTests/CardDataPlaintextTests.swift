import EMV
import SandboxCards
import Testing

/// The card data the reader seals and the gateway opens.
@Suite(.timeLimit(.minutes(2))) struct CardDataPlaintextTests {
    @Test func roundTripsEveryCard() throws {
        for card in SandboxCards.all {
            let plain = CardDataPlaintext(card: card)
            let decoded = try CardDataPlaintext(decoding: plain.encoded())
            #expect(decoded == plain, "\(card.id)")
        }
    }

    @Test func encodesTheDocumentedTagsInOrder() throws {
        let card = try #require(SandboxCards.card(id: "visa-credit"))
        let tree = try TLVTree(decoding: CardDataPlaintext(card: card).encoded())
        #expect(tree.roots.map(\.tag) == [0x5A, 0x5F24, 0x5F34, 0x57, 0x5F20])
        #expect(Array(tree[0x5A]!) == [0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11])
        #expect(Array(tree[0x5F24]!) == [0x49, 0x12, 0x31])
        #expect(Array(tree[0x5F34]!) == [0x01])
    }

    @Test func optionalFieldsMayBeAbsentAndOddPANsArePadded() throws {
        let pan = try #require(PAN("378282246310005"))
        let plain = CardDataPlaintext(pan: pan, expiry: "2802")
        let bytes = plain.encoded()
        let tree = try TLVTree(decoding: bytes)
        #expect(tree.roots.map(\.tag) == [0x5A, 0x5F24])
        #expect(Array(tree[0x5A]!).last == 0x5F)
        #expect(Array(tree[0x5F24]!) == [0x28, 0x02, 0x29])
        #expect(try CardDataPlaintext(decoding: bytes) == plain)
    }

    @Test func rejectsGarbageWithoutEchoingIt() {
        #expect(throws: SandboxIssuerError(.malformedCardData, "")) {
            try CardDataPlaintext(decoding: [0x5A, 0x09, 0x41])
        }
        #expect(throws: SandboxIssuerError(.malformedCardData, "")) {
            try CardDataPlaintext(decoding: [0x5F, 0x20, 0x01, 0x41])
        }
    }

    @Test func aPANSequenceNumberMustBeOneBCDByte() throws {
        let pan: [UInt8] = [0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11]
        func decode(psn: [UInt8]) throws -> CardDataPlaintext {
            try CardDataPlaintext(
                decoding: TLV.encode([TLV(0x5A, value: pan), TLV(0x5F24, value: [0x30, 0x12, 0x31]), TLV(0x5F34, value: psn)]))
        }
        #expect(try decode(psn: [0x09]).panSequenceNumber == 0x09)
        for bad: [UInt8] in [[], [0x0A], [0xA0], [0x01, 0x01]] {
            #expect(throws: SandboxIssuerError(.malformedCardData, ""), "\(bad)") { try decode(psn: bad) }
        }
    }

    @Test func printsMasked() throws {
        let card = try #require(SandboxCards.card(id: "visa-credit"))
        let plain = CardDataPlaintext(card: card)
        #expect(!"\(plain)".contains(card.pan.unmaskedDigits))
        #expect(!String(reflecting: plain).contains(card.pan.unmaskedDigits))
    }
}
