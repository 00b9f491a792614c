import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct MoneyTests {
    @Test func holdsMinorUnitsAndCurrency() throws {
        let money = try Money(amount: 1234, currency: .eur)
        #expect(money.amount == 1234)
        #expect(money.currency == .eur)
        #expect(!money.isZero)
        #expect(!money.isNegative)
        #expect(try Money.zero(.usd).isZero)
        #expect(try Money(amount: -1, currency: .usd).isNegative)
    }

    @Test func refusesCurrenciesWithoutMinorUnits() {
        #expect(throws: MPOSError.currencyHasNoMinorUnits) { try Money(amount: 1, currency: .xau) }
        #expect(throws: MPOSError.currencyHasNoMinorUnits) { try Money.zero(.xxx) }
    }

    @Test func comparesAmountAndCurrency() throws {
        #expect(try Money(amount: 100, currency: .eur) == Money(amount: 100, currency: .eur))
        #expect(try Money(amount: 100, currency: .eur) != Money(amount: 100, currency: .usd))
        #expect(try Money(amount: 100, currency: .eur) != Money(amount: 101, currency: .eur))
        #expect(try Set([Money(amount: 1, currency: .eur), Money(amount: 1, currency: .eur)]).count == 1)
    }

    @Test func codesAsAmountAndCurrencyCode() throws {
        let money = try Money(amount: 1234, currency: .eur)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(money), as: UTF8.self)
        #expect(json == #"{"amount":1234,"currency":"EUR"}"#)
        #expect(try JSONDecoder().decode(Money.self, from: Data(json.utf8)) == money)
        let extreme = try Money(amount: .min, currency: .bhd)
        #expect(try JSONDecoder().decode(Money.self, from: encoder.encode(extreme)) == extreme)
    }

    @Test func refusesToDecodeBadCurrencies() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Money.self, from: Data(#"{"amount":1,"currency":"XAU"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Money.self, from: Data(#"{"amount":1,"currency":"QQQ"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Money.self, from: Data(#"{"amount":1.5,"currency":"EUR"}"#.utf8))
        }
    }
}
