import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct MoneyFormattingTests {
    @Test func formatsWithADotAndTheCurrencysDecimals() throws {
        #expect(try Money(amount: 1234, currency: .eur).formatted() == "12.34")
        #expect(try Money(amount: 1, currency: .eur).formatted() == "0.01")
        #expect(try Money(amount: 10, currency: .eur).formatted() == "0.10")
        #expect(try Money(amount: 0, currency: .eur).formatted() == "0.00")
        #expect(try Money(amount: 123_456_789, currency: .eur).formatted() == "1234567.89")
        #expect(try Money(amount: 1234, currency: .jpy).formatted() == "1234")
        #expect(try Money(amount: 0, currency: .jpy).formatted() == "0")
        #expect(try Money(amount: 1234, currency: .bhd).formatted() == "1.234")
        #expect(try Money(amount: 5, currency: .kwd).formatted() == "0.005")
        #expect(try Money(amount: 12345, currency: .clf).formatted() == "1.2345")
        #expect(try Money(amount: 7, currency: .clf).formatted() == "0.0007")
    }

    @Test func formatsNegativeAmountsWithALeadingMinus() throws {
        #expect(try Money(amount: -1234, currency: .eur).formatted() == "-12.34")
        #expect(try Money(amount: -5, currency: .eur).formatted() == "-0.05")
        #expect(try Money(amount: -1234, currency: .jpy).formatted() == "-1234")
        #expect(try Money(amount: -1, currency: .bhd).formatted() == "-0.001")
    }

    @Test func formatsTheExtremesWithoutTrapping() throws {
        #expect(try Money(amount: .max, currency: .eur).formatted() == "92233720368547758.07")
        #expect(try Money(amount: .min, currency: .eur).formatted() == "-92233720368547758.08")
        #expect(try Money(amount: .min, currency: .jpy).formatted() == "-9223372036854775808")
        #expect(try Money(amount: .min, currency: .clf).formatted() == "-922337203685477.5808")
    }

    @Test func describesAmountAndCurrency() throws {
        #expect(try Money(amount: 1234, currency: .eur).description == "12.34 EUR")
        #expect(try "\(Money(amount: -500, currency: .jpy))" == "-500 JPY")
        #expect(try Money(amount: 1234, currency: .bhd).description == "1.234 BHD")
    }
}
