import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// Validation happens before any I/O and names the rule, never the text.
@Suite(.timeLimit(.minutes(2)))
struct PaymentParametersTests {
    @Test func acceptsAPlainSale() throws {
        try PaymentParameters(
            amount: 1, currency: .eur, externalID: String(repeating: "x", count: 50),
            statementDescriptor: "Coffee 22"
        ).validate()
    }

    @Test func refusesNonPositiveAmounts() {
        #expect(throws: MPOSError.amountNotPositive) {
            try PaymentParameters(amount: 0, currency: .eur).validate()
        }
        #expect(throws: MPOSError.amountNotPositive) {
            try PaymentParameters(amount: -5, currency: .eur).validate()
        }
    }

    @Test func refusesACurrencyWithoutMinorUnits() throws {
        let gold = try #require(Currency(code: "XAU"))
        #expect(throws: MPOSError.currencyHasNoMinorUnits) {
            try PaymentParameters(amount: 1, currency: gold).validate()
        }
    }

    @Test func refusesALongExternalID() {
        #expect(throws: MPOSError.externalIDTooLong) {
            try PaymentParameters(amount: 1, currency: .eur, externalID: String(repeating: "x", count: 51))
                .validate()
        }
    }

    @Test(arguments: [
        "ftp://example.com/x", "http://example.com/paid", "/relative", "", "https://user:pw@example.com/x",
        "https://example.com/" + String(repeating: "a", count: 2048),
    ])
    func refusesACallbackURLTheGatewayMayNotPostTo(_ url: String) {
        #expect(throws: MPOSError.invalidArgument) {
            try PaymentParameters(amount: 1, currency: .eur, callbackURL: url).validate()
        }
    }

    @Test(arguments: [
        "https://shop.example.com/orders/17/paid", "http://127.0.0.1:8080/paid", "http://localhost/x",
    ])
    func acceptsAnHTTPSCallbackOrHTTPToLoopback(_ url: String) throws {
        try PaymentParameters(amount: 1, currency: .eur, callbackURL: url).validate()
        let sent = try GatewayJSON.makeEncoder().encode(
            PaymentParameters(amount: 1, currency: .eur, callbackURL: url))
        #expect(try GatewayJSON.makeDecoder().decode(PaymentParameters.self, from: sent).callbackURL == url)
    }

    @Test(arguments: ["", "12345", "A<B", "Joe's", "say \"hi\"", "ABCDEFGHIJKLMNOPQRSTUVW"])
    func refusesABadDescriptor(_ descriptor: String) {
        #expect(throws: MPOSError.invalidStatementDescriptor) {
            try PaymentParameters(amount: 1, currency: .eur, statementDescriptor: descriptor).validate()
        }
    }

    @Test func aSuffixJoinsTheDescriptorWithinTheLimit() throws {
        try PaymentParameters(
            amount: 1, currency: .eur, statementDescriptor: "COFFEE SHOP",
            statementDescriptorSuffix: "TABLE 4"
        ).validate()
        for (descriptor, suffix) in [("COFFEE SHOP", "TABLE NUMBER 4"), (nil, "TABLE 4"), ("COFFEE", "<4>")] {
            #expect(throws: MPOSError.invalidStatementDescriptor) {
                try PaymentParameters(
                    amount: 1, currency: .eur, statementDescriptor: descriptor,
                    statementDescriptorSuffix: suffix
                ).validate()
            }
        }
    }

    @Test func aBasketMustAddUpToTheAmount() throws {
        let basket = Basket(
            items: [BasketItem(name: "Coffee", quantity: 2, unitPrice: 3_50, taxBasisPoints: 700)],
            gratuity: 50)
        try PaymentParameters(amount: 7_50, currency: .eur, basket: basket).validate()
        do {
            try PaymentParameters(amount: 7_00, currency: .eur, basket: basket).validate()
            Issue.record("a basket of 7.50 passed for 7.00")
        } catch {
            #expect(error.code == MPOSError.invalidBasket.code)
            #expect(error.message.contains("adds up to 750"))
            #expect(!error.message.contains("Coffee"))
        }
    }

    @Test func anInstalmentPlanNeedsTwoToNinetyNine() throws {
        try PaymentParameters(amount: 1, currency: .eur, installments: Installments(count: 12)).validate()
        #expect(throws: MPOSError.invalidInstallments) {
            try PaymentParameters(amount: 1, currency: .eur, installments: Installments(count: 1)).validate()
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
