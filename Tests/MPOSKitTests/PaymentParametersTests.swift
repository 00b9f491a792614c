import MPOSCore
import Testing

@testable import MPOSKit

/// Validation happens before any I/O and names the rule, never the text.
struct PaymentParametersTests {
    @Test func acceptsAPlainSale() throws {
        try PaymentParameters(amount: 1, currency: .eur, externalID: String(repeating: "x", count: 50),
            statementDescriptor: "Coffee 22").validate()
    }

    @Test func refusesNonPositiveAmounts() {
        #expect(throws: MPOSError.amountNotPositive) { try PaymentParameters(amount: 0, currency: .eur).validate() }
        #expect(throws: MPOSError.amountNotPositive) { try PaymentParameters(amount: -5, currency: .eur).validate() }
    }

    @Test func refusesACurrencyWithoutMinorUnits() throws {
        let gold = try #require(Currency(code: "XAU"))
        #expect(throws: MPOSError.currencyHasNoMinorUnits) { try PaymentParameters(amount: 1, currency: gold).validate() }
    }

    @Test func refusesALongExternalID() {
        #expect(throws: MPOSError.externalIDTooLong) {
            try PaymentParameters(amount: 1, currency: .eur, externalID: String(repeating: "x", count: 51)).validate()
        }
    }

    @Test(arguments: ["", "12345", "A<B", "Joe's", "say \"hi\"", "ABCDEFGHIJKLMNOPQRSTUVW"])
    func refusesABadDescriptor(_ descriptor: String) {
        #expect(throws: MPOSError.invalidStatementDescriptor) {
            try PaymentParameters(amount: 1, currency: .eur, statementDescriptor: descriptor).validate()
        }
    }

    @Test func codesSitInTheSDKBlock() {
        #expect(MPOSError.amountNotPositive.category == .integration)
        #expect(MPOSError.readerNotConnected.category == .reader)
        #expect(MPOSError.gatewayUnreachable.category == .network)
        #expect(MPOSError.journalFailed.category == .storage)
        #expect(MPOSError.paymentCancelled.category == .cardholder)
    }
}
