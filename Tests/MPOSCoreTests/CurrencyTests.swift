import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct CurrencyTests {
    @Test func generatedTableHoldsEveryActiveCurrencyOnce() {
        #expect(Currency.all.count == 178)
        #expect(Set(Currency.all.map(\.code)).count == Currency.all.count)
        #expect(Set(Currency.all.map(\.numericCode)).count == Currency.all.count)
        #expect(Currency.all.map(\.code) == Currency.all.map(\.code).sorted())
    }

    @Test func everyEntryIsWellFormed() {
        for currency in Currency.all {
            #expect(currency.code.utf8.count == 3)
            #expect(currency.code.utf8.allSatisfy { $0 >= 65 && $0 <= 90 })
            #expect((1...999).contains(currency.numericCode))
            #expect([nil, 0, 2, 3, 4].contains(currency.minorUnits))
            #expect(!currency.name.isEmpty)
            #expect(currency.name == currency.name.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func minorUnitsFollowTheStandard() {
        #expect(Currency.eur.minorUnits == 2)
        #expect(Currency.jpy.minorUnits == 0)
        #expect(Currency.krw.minorUnits == 0)
        #expect(Currency.bhd.minorUnits == 3)
        #expect(Currency.kwd.minorUnits == 3)
        #expect(Currency.clf.minorUnits == 4)
        #expect(Currency(code: "UYW")?.minorUnits == 4)
        #expect(Currency.xau.minorUnits == nil)
        #expect(Currency.xts.minorUnits == nil)
        #expect(Currency.xxx.minorUnits == nil)
        #expect(Currency(code: "XDR")?.minorUnits == nil)
        #expect(Currency.all.filter { $0.minorUnits == nil }.count == 13)
    }

    @Test func looksUpAlphaCodesIgnoringCase() {
        #expect(Currency(code: "EUR") == .eur)
        #expect(Currency(code: "eur") == .eur)
        #expect(Currency(code: "uSd") == .usd)
        #expect(Currency(code: "EUR")?.name == "Euro")
        #expect(Currency(code: "CHF")?.numericCode == 756)
    }

    @Test func rejectsCodesThatAreNotActiveISO4217() {
        #expect(Currency(code: "ABC") == nil)
        #expect(Currency(code: "EU") == nil)
        #expect(Currency(code: "EURO") == nil)
        #expect(Currency(code: "") == nil)
        #expect(Currency(code: " EUR") == nil)
        #expect(Currency(code: "DEM") == nil)  // withdrawn in 2002
        #expect(Currency(code: "\u{131}nr") == nil)  // dotless i must not upper-case to INR
        #expect(Currency(code: "ＥＵＲ") == nil)  // full-width letters
    }

    @Test func looksUpNumericCodes() {
        #expect(Currency(numericCode: 978) == .eur)
        #expect(Currency(numericCode: 840) == .usd)
        #expect(Currency(numericCode: 392) == .jpy)
        #expect(Currency(numericCode: 8)?.code == "ALL")
        #expect(Currency(numericCode: 0) == nil)
        #expect(Currency(numericCode: 1000) == nil)
        #expect(Currency(numericCode: -978) == nil)
    }

    @Test func namedMembersMatchTheTable() {
        let named: [Currency] = [
            .aud, .bhd, .brl, .cad, .chf, .clf, .cny, .czk, .dkk, .eur, .gbp, .hkd, .huf, .inr, .isk,
            .jpy, .krw, .kwd, .mxn, .nok, .nzd, .pln, .ron, .sek, .sgd, .usd, .xau, .xts, .xxx, .zar,
        ]
        for currency in named {
            let entry = Currency(code: currency.code)
            #expect(entry?.numericCode == currency.numericCode)
            #expect(entry?.minorUnits == currency.minorUnits)
            #expect(entry?.name == currency.name)
            #expect(entry?.isFund == currency.isFund)
        }
    }

    @Test func marksFunds() {
        #expect(Currency.clf.isFund)
        #expect(Currency(code: "USN")?.isFund == true)
        #expect(!Currency.eur.isFund)
        #expect(Currency.all.filter(\.isFund).count == 8)
    }

    @Test func equalityAndHashingUseTheAlphaCode() {
        let set: Set<Currency> = [.eur, Currency(code: "eur")!, .usd]
        #expect(set.count == 2)
        #expect(Currency.eur != .usd)
        #expect(Currency.eur.description == "EUR")
    }

    @Test func codesAsTheAlphaCodeString() throws {
        let data = try JSONEncoder().encode([Currency.eur, .jpy])
        #expect(String(decoding: data, as: UTF8.self) == #"["EUR","JPY"]"#)
        let decoded = try JSONDecoder().decode([Currency].self, from: Data(#"["CHF","BHD"]"#.utf8))
        #expect(decoded == [.chf, .bhd])
        for spelling in ["chf", "Chf", "cHF"] {
            #expect(throws: DecodingError.self, "\(spelling)") {
                try JSONDecoder().decode(Currency.self, from: Data("\"\(spelling)\"".utf8))
            }
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Currency.self, from: Data(#""ZZZ""#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Currency.self, from: Data("978".utf8))
        }
    }

    @Test func validatingLookupThrowsUnknownCurrency() throws {
        #expect(try Currency(validatingCode: "sek") == .sek)
        #expect(throws: MPOSError.unknownCurrency) { try Currency(validatingCode: "XYZ") }
    }
}
