import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct MoneyParsingTests {
    @Test func parsesMajorUnitsIntoMinorUnits() throws {
        #expect(try Money.parse("12.34", currency: .eur).amount == 1234)
        #expect(try Money.parse("12.3", currency: .eur).amount == 1230)
        #expect(try Money.parse("12", currency: .eur).amount == 1200)
        #expect(try Money.parse("0.01", currency: .eur).amount == 1)
        #expect(try Money.parse("0", currency: .eur).amount == 0)
        #expect(try Money.parse("007.50", currency: .eur).amount == 750)
        #expect(try Money.parse("1234", currency: .jpy).amount == 1234)
        #expect(try Money.parse("1.234", currency: .bhd).amount == 1234)
        #expect(try Money.parse("1.2", currency: .bhd).amount == 1200)
        #expect(try Money.parse("1.2345", currency: .clf).amount == 12345)
        #expect(try Money.parse("1", currency: .clf).amount == 10000)
        #expect(try Money.parse("12.34", currency: .eur).currency == .eur)
    }

    @Test func acceptsAnySubstring() throws {
        let text = "total=9.99"
        let value = text[text.index(text.startIndex, offsetBy: 6)...]
        #expect(try Money.parse(value, currency: .usd).amount == 999)
    }

    @Test func rejectsMoreDecimalsThanTheCurrencyHas() {
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("12.345", currency: .eur) }
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("12.340", currency: .eur) }
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("12.5", currency: .jpy) }
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("12.0", currency: .jpy) }
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("1.2345", currency: .bhd) }
        #expect(throws: MPOSError.tooManyDecimals) { try Money.parse("1.23456", currency: .clf) }
    }

    @Test func rejectsNegativeAmounts() {
        #expect(throws: MPOSError.negativeAmount) { try Money.parse("-1", currency: .eur) }
        #expect(throws: MPOSError.negativeAmount) { try Money.parse("-12.34", currency: .eur) }
        #expect(throws: MPOSError.negativeAmount) { try Money.parse("-0", currency: .eur) }
    }

    @Test(arguments: [
        "abc", "", "1.2.3", "1,00", " 12", "12 ", "+5", "1e3", ".5", "5.", ".", "-", "--1", "-abc",
        "1_000", "0x10", "١٢", "１２", "12\n", "1 000", "12.3a", "NaN", "∞",
    ])
    func rejectsAnythingButPlainDecimals(text: String) {
        #expect(throws: MPOSError.invalidAmount) { try Money.parse(text, currency: .eur) }
    }

    @Test func acceptsTheLargestAmountAndRejectsOneMore() throws {
        let largest = try Money.parse("92233720368547758.07", currency: .eur)
        #expect(largest.amount == Int64.max)
        #expect(throws: MPOSError.amountOverflow) { try Money.parse("92233720368547758.08", currency: .eur) }
        #expect(throws: MPOSError.amountOverflow) { try Money.parse("92233720368547759", currency: .eur) }
        #expect(try Money.parse("9223372036854775807", currency: .jpy).amount == Int64.max)
        #expect(throws: MPOSError.amountOverflow) { try Money.parse("9223372036854775808", currency: .jpy) }
        #expect(try Money.parse("922337203685477.5807", currency: .clf).amount == Int64.max)
        #expect(throws: MPOSError.amountOverflow) { try Money.parse("922337203685477.5808", currency: .clf) }
        #expect(throws: MPOSError.amountOverflow) {
            try Money.parse(String(repeating: "9", count: 400), currency: .eur)
        }
        #expect(try Money.parse(String(repeating: "0", count: 400) + "1", currency: .eur).amount == 100)
    }

    @Test func rejectsCurrenciesWithoutMinorUnits() {
        for code in ["XAU", "XAG", "XPT", "XPD", "XTS", "XXX", "XDR", "XBA"] {
            #expect(throws: MPOSError.currencyHasNoMinorUnits) {
                try Money.parse("1", currency: Currency(code: code)!)
            }
        }
    }

    @Test func reportsOneDistinctCodePerProblem() {
        func code(_ text: String, _ currency: Currency) -> Int? {
            do {
                _ = try Money.parse(text, currency: currency)
                return nil
            } catch {
                return error.code
            }
        }
        let codes = [
            code("x", .eur), code("1.234", .eur), code("-1", .eur),
            code("1" + String(repeating: "0", count: 20), .eur),
            code("1", .xau),
        ]
        #expect(
            codes == [
                MPOSError.Code.invalidAmount, MPOSError.Code.tooManyDecimals, MPOSError.Code.negativeAmount,
                MPOSError.Code.amountOverflow, MPOSError.Code.currencyHasNoMinorUnits,
            ])
    }

    @Test func errorMessagesDoNotEchoTheInput() {
        let secret = "4111111111111111.123"
        do {
            _ = try Money.parse(secret, currency: .eur)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == MPOSError.Code.tooManyDecimals)
            #expect(!error.message.contains("4111"))
            #expect(error.message.contains("EUR"))
        }
    }

    @Test func roundTripsFormattedAmountsForEveryCurrencyWithMinorUnits() throws {
        let amounts: [Int64] = [0, 1, 9, 10, 99, 100, 101, 1234, 100_000, 12_345_678, Int64.max]
        for currency in Currency.all where currency.minorUnits != nil {
            for amount in amounts {
                let money = try Money(amount: amount, currency: currency)
                #expect(try Money.parse(money.formatted(), currency: currency) == money)
            }
        }
    }
}
