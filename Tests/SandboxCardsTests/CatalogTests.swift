import CardCrypto
import EMV
import SandboxCards
import Testing

/// The catalog: every card well-formed, unique and of the expected scheme.
@Suite(.timeLimit(.minutes(2))) struct CatalogTests {
    @Test func noCardExpiresWhileTheSandboxAndItsTestsAreInUse() {
        // Only the card that plays "expired" may have expired; the rest run until 2050, so the
        // end-to-end tests (on the real clock) and long-lived sandboxes never meet an expiry.
        for card in SandboxCards.all where card.id != "expired" {
            #expect(!card.isExpired(atYear: 2049, month: 12), "\(card.id) expires \(card.expiry)")
        }
        #expect(SandboxCards.all.first { $0.id == "expired" }?.isExpired(atYear: 2023, month: 1) == true)
    }

    @Test func everyCardIsLuhnValid() {
        for card in SandboxCards.all {
            #expect(card.pan.isLuhnValid, "\(card.id)")
        }
    }

    @Test func idsAndPANsAreUnique() {
        #expect(Set(SandboxCards.all.map(\.id)).count == SandboxCards.all.count)
        #expect(Set(SandboxCards.all.map(\.pan)).count == SandboxCards.all.count)
    }

    @Test func catalogCoversTheRequiredCards() {
        let ids = [
            "visa-credit", "visa-debit", "mastercard-2series", "maestro-mastercard", "amex", "discover",
            "jcb",
            "unionpay", "magstripe-only", "chip-fallback", "expired", "blocked", "pin-required", "signature",
            "contactless", "contactless-signature", "approves-offline", "declines-second-gen-ac",
        ]
        for id in ids { #expect(SandboxCards.card(id: id) != nil, "\(id)") }
    }

    @Test(arguments: [
        ("visa-credit", CardScheme.visa), ("visa-debit", .visa), ("mastercard-2series", .mastercard),
        ("maestro-mastercard", .mastercard), ("amex", .amex), ("discover", .discover), ("jcb", .jcb),
        ("unionpay", .unionPay),
    ])
    func schemesMatchTheBIN(id: String, scheme: CardScheme) throws {
        let card = try #require(SandboxCards.card(id: id))
        #expect(card.scheme == scheme)
        #expect(card.pan.scheme == scheme)
    }

    @Test func twoSeriesMastercardHasATwoSeriesBIN() throws {
        let card = try #require(SandboxCards.card(id: "mastercard-2series"))
        let four = Int(card.pan.unmaskedDigits.prefix(4))!
        #expect((2221...2720).contains(four))
    }

    @Test func dualCardOffersMastercardAndMaestro() throws {
        let card = try #require(SandboxCards.card(id: "maestro-mastercard"))
        #expect(card.needsApplicationSelection)
        #expect(card.applications.map(\.aidHex) == ["A0000000041010", "A0000000043060"])
    }

    @Test func lookupByPANFindsTheSameCard() {
        for card in SandboxCards.all {
            #expect(SandboxCards.card(pan: card.pan)?.id == card.id)
        }
        #expect(SandboxCards.card(pan: "4242 4242 4242 4242") == nil)
    }

    @Test func everyChipCardHasAnApplicationAndEveryCardAPIN() {
        for card in SandboxCards.all {
            if card.interfaces.contains(.chip) || card.interfaces.contains(.contactless) {
                #expect(!card.applications.isEmpty, "\(card.id)")
            }
            #expect(card.pin == "1234")
            #expect(card.expiryDate != nil)
        }
    }

    @Test func expiredCardHasExpiredAndOthersHaveNot() throws {
        for card in SandboxCards.all {
            #expect(card.isExpired(atYear: 2026, month: 11) == (card.id == "expired"), "\(card.id)")
        }
    }

    @Test func cardsPrintMasked() {
        for card in SandboxCards.all {
            #expect(!"\(card)".contains(card.pan.unmaskedDigits))
            #expect(!String(reflecting: card).contains(card.pan.unmaskedDigits))
        }
    }

    @Test func track2EquivalentParsesBackToTheCard() throws {
        for card in SandboxCards.all {
            let track = try Track2(bytes: card.track2Equivalent)
            #expect(track.pan == card.pan)
            #expect(track.expiry.yymm == card.expiry)
            #expect(track.serviceCode.code == card.serviceCode)
            #expect(try Track2(string: card.magstripeTrack2).pan == card.pan)
        }
    }

    @Test func iccMasterKeyIsTheEMVDerivationFromTheSandboxIMK() throws {
        let card = try #require(SandboxCards.card(id: "visa-credit"))
        let expected = try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: card.pan, panSequenceNumber: 0x01)
        #expect(try SandboxCards.iccMasterKey(for: card) == expected)
        let other = try #require(SandboxCards.card(id: "visa-debit"))
        #expect(try SandboxCards.iccMasterKey(for: other) != expected)
    }
}
