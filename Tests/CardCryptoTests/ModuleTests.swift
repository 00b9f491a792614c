import CardCrypto
import Testing

@Test func moduleLinks() { #expect(String(describing: CardCryptoModule.self).isEmpty == false) }
