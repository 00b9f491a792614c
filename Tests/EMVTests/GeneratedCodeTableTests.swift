import EMV
import Testing

@Suite(.timeLimit(.minutes(2)))
struct GeneratedCodeTableTests {
    @Test func looksUpCurrenciesByNumericCode() {
        #expect(ISO4217Numeric.currency(numericCode: 978)?.code == "EUR")
        #expect(ISO4217Numeric.currency(numericCode: 978)?.minorUnits == 2)
        #expect(ISO4217Numeric.currency(numericCode: 392)?.minorUnits == 0)
        #expect(ISO4217Numeric.currency(numericCode: 48)?.code == "BHD")
        #expect(ISO4217Numeric.currency(numericCode: 48)?.minorUnits == 3)
        #expect(ISO4217Numeric.currency(numericCode: 959)?.minorUnits == nil)  // gold
        #expect(ISO4217Numeric.currency(numericCode: 1) == nil)
        #expect(ISO4217Numeric.all.count > 150)
    }

    @Test func looksUpCountriesByNumericCode() {
        #expect(ISO3166Numeric.country(numericCode: 826)?.alpha2 == "GB")
        #expect(ISO3166Numeric.country(numericCode: 840)?.alpha2 == "US")
        #expect(ISO3166Numeric.country(numericCode: 276)?.name == "Germany")
        #expect(ISO3166Numeric.country(numericCode: 999) == nil)
        #expect(ISO3166Numeric.all.count >= 249)
    }
}
