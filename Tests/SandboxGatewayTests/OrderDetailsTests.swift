import Foundation
import GatewayAPI
import MPOSCore
import Testing

/// The basket and instalment rules that the SDK and the gateway share, and the gateway
/// applying them over HTTP.
@Suite(.timeLimit(.minutes(2))) struct OrderDetailsTests {
    static let coffee = BasketItem(name: "Coffee", quantity: 2, unitPrice: 3_50, taxBasisPoints: 700)
    static let cake = BasketItem(name: "Cake", quantity: 1, unitPrice: 4_00, taxBasisPoints: 1_900, sku: "C-1")

    @Test func aBasketThatAddsUpIsValid() {
        let basket = Basket(
            items: [Self.coffee, Self.cake], gratuity: 1_00, serviceCharge: 50,
            location: GeoLocation(latitude: 48.1, longitude: 11.6))
        #expect(GatewayValidation.basketProblem(basket, amount: 12_50) == nil)
        #expect(GatewayValidation.basketProblem(Basket(items: [Self.cake]), amount: 4_00) == nil)
    }

    @Test(arguments: [
        (Basket(items: [coffee]), Int64(7_01), "adds up to 700"),
        (Basket(items: []), 0, "1 to 500 items"),
        (Basket(items: [BasketItem(name: "", quantity: 1, unitPrice: 1)]), 1, "item 1: name"),
        (Basket(items: [BasketItem(name: String(repeating: "n", count: 101), quantity: 1, unitPrice: 1)]), 1, "name"),
        (Basket(items: [cake, BasketItem(name: "x", quantity: 0, unitPrice: 1)]), 4_00, "item 2: quantity"),
        (Basket(items: [BasketItem(name: "x", quantity: 1, unitPrice: -1)]), -1, "unitPrice"),
        (Basket(items: [BasketItem(name: "x", quantity: 1, unitPrice: 1, taxBasisPoints: 10_001)]), 1, "taxBasisPoints"),
        (Basket(items: [BasketItem(name: "x", quantity: 1, unitPrice: 1, taxBasisPoints: -1)]), 1, "taxBasisPoints"),
        (Basket(items: [cake], gratuity: -1), 3_99, "gratuity may not be negative"),
        (Basket(items: [cake], serviceCharge: -5), 3_95, "serviceCharge may not be negative"),
        (Basket(items: [cake], location: GeoLocation(latitude: 91, longitude: 0)), 4_00, "location"),
        (Basket(items: [cake], location: GeoLocation(latitude: .nan, longitude: 0)), 4_00, "location"),
        (Basket(items: [BasketItem(name: "x", quantity: Int.max, unitPrice: Int64.max)]), 1, "too large"),
        (Basket(items: [BasketItem(name: "x", quantity: 1, unitPrice: Int64.max)], gratuity: 1), 1, "too large"),
    ])
    func aBrokenBasketNamesItsRule(basket: Basket, amount: Int64, rule: String) throws {
        let problem = try #require(GatewayValidation.basketProblem(basket, amount: amount))
        #expect(problem.contains(rule), "\(problem)")
    }

    @Test func instalmentPlans() {
        #expect(GatewayValidation.installmentsProblem(Installments(count: 2)) == nil)
        #expect(GatewayValidation.installmentsProblem(Installments(count: 99, intervalMonths: 12)) == nil)
        #expect(GatewayValidation.installmentsProblem(Installments(count: 1))?.contains("count") == true)
        #expect(GatewayValidation.installmentsProblem(Installments(count: 100))?.contains("count") == true)
        #expect(GatewayValidation.installmentsProblem(Installments(count: 3, intervalMonths: 0))?.contains("interval") == true)
    }

    /// The two receipts of the Accept seed: 10 % tax on 10.00 is 0.90 on a net 9.10, and on
    /// 9.00 it is 0.81 on 8.19 (tax rounded down).
    @Test func taxIsWorkedOutPerRateAsTheSeedReceiptsShowIt() {
        let ten = ReceiptLine(description: "No description", quantity: 1, unitPrice: 10_00, total: 10_00, taxBasisPoints: 1_000)
        #expect(ReceiptTax.summary(of: [ten]) == [ReceiptTax(basisPoints: 1_000, netAmount: 9_10, taxAmount: 90)])
        let nine = ReceiptLine(description: "No description", quantity: 1, unitPrice: 9_00, total: 9_00, taxBasisPoints: 1_000)
        #expect(ReceiptTax.summary(of: [nine]) == [ReceiptTax(basisPoints: 1_000, netAmount: 8_19, taxAmount: 81)])
        let lines = ReceiptLine.lines(for: Basket(items: [Self.cake, Self.coffee], gratuity: 1_00, serviceCharge: 50))
        #expect(lines.map(\.description) == ["Cake", "Coffee", "Service charge", "Gratuity"])
        #expect(lines.map(\.total) == [4_00, 7_00, 50, 1_00])
        // 7 % of 7.00 is 0.45 (0.4579 rounded down); 19 % of 4.00 is 0.63; no line for 0 %.
        #expect(
            ReceiptTax.summary(of: lines) == [
                ReceiptTax(basisPoints: 700, netAmount: 6_55, taxAmount: 45),
                ReceiptTax(basisPoints: 1_900, netAmount: 3_37, taxAmount: 63),
            ])
        #expect(ReceiptTax.summary(of: lines).map(\.rateText) == ["7 %", "19 %"])
        #expect(ReceiptTax(basisPoints: 750, netAmount: 0, taxAmount: 0).rateText == "7.5 %")
        #expect(ReceiptTax(basisPoints: 25, netAmount: 0, taxAmount: 0).rateText == "0.25 %")
    }

    @Test func theGatewayRefusesABrokenBasketAndKeepsAGoodOne() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let broken = try await PaymentHTTPTests.post(
                harness, GatewayPaths.cashPayment,
                CashPaymentRequest(amount: 7_01, currency: .eur, basket: Basket(items: [Self.coffee])), token: token)
            #expect(broken.status == 400 && broken.error?.code == GatewayErrorCode.invalidValue)
            #expect(broken.error?.message.contains("adds up to 700") == true)

            let good = try await PaymentHTTPTests.post(
                harness, GatewayPaths.cashPayment,
                CashPaymentRequest(amount: 7_00, currency: .eur, basket: Basket(items: [Self.coffee])), token: token)
            let cash = try good.decode(Transaction.self)
            #expect(cash.status == .approved)
            let receipt = try await harness.send(
                .get, GatewayPaths.transaction(GatewayPaths.receipt, id: cash.id.rawValue), token: token)
            let data = try receipt.decode(ReceiptData.self)
            #expect(data.lines == ReceiptLine.lines(for: Basket(items: [Self.coffee])))
            #expect(data.taxes == [ReceiptTax(basisPoints: 700, netAmount: 6_55, taxAmount: 45)])

            var card = try PaymentHTTPTests.authorize(SimulatedTerminal.card("visa-credit"), amount: 7_00)
            card.parameters.installments = Installments(count: 1)
            let plan = try await PaymentHTTPTests.post(harness, GatewayPaths.authorizeCard, card, token: token)
            #expect(plan.status == 400 && plan.error?.message.contains("installments") == true)
            card.parameters.installments = Installments(count: 3)
            card.parameters.basket = Basket(items: [Self.coffee])
            let approved = try await PaymentHTTPTests.post(harness, GatewayPaths.authorizeCard, card, token: token)
            #expect(try approved.decode(Transaction.self).status == .approved)
        }
    }
}
