import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct MoneyArithmeticTests {
    @Test func addsAndSubtractsInTheSameCurrency() throws {
        let a = try Money(amount: 1234, currency: .eur)
        let b = try Money(amount: 66, currency: .eur)
        #expect(try a.adding(b) == Money(amount: 1300, currency: .eur))
        #expect(try a.subtracting(b) == Money(amount: 1168, currency: .eur))
        #expect(try b.subtracting(a) == Money(amount: -1168, currency: .eur))
        #expect(try a.negated() == Money(amount: -1234, currency: .eur))
    }

    @Test func rejectsMixedCurrencies() throws {
        let euros = try Money(amount: 100, currency: .eur)
        let dollars = try Money(amount: 100, currency: .usd)
        #expect(throws: MPOSError.currencyMismatch) { try euros.adding(dollars) }
        #expect(throws: MPOSError.currencyMismatch) { try euros.subtracting(dollars) }
    }

    @Test func reportsOverflowInsteadOfTrapping() throws {
        let largest = try Money(amount: .max, currency: .eur)
        let smallest = try Money(amount: .min, currency: .eur)
        let cent = try Money(amount: 1, currency: .eur)
        #expect(throws: MPOSError.amountOverflow) { try largest.adding(cent) }
        #expect(throws: MPOSError.amountOverflow) { try smallest.subtracting(cent) }
        #expect(throws: MPOSError.amountOverflow) { try smallest.negated() }
        #expect(try largest.subtracting(cent).amount == Int64.max - 1)
        #expect(try smallest.adding(largest).amount == -1)
    }
}
