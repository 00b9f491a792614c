import Foundation
import GatewayAPI
import MPOSCore
import Testing

@Suite("GatewayAPI contract types", .timeLimit(.minutes(2)))
struct GatewayAPIContractTests {
    @Test func authorizeCardRequestFillsDefaults() throws {
        let json = #"{"kind":"sale","amount":1234,"currency":"EUR","entryMode":"chip","cvm":"pin"}"#
        let request = try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: Data(json.utf8))
        #expect(request.parameters.currency == .eur)
        #expect(request.parameters.duplicateCheck)
        #expect(request.parameters.cardholderPresent)
        #expect(!request.parameters.allowPartialApproval)
        #expect(request.parameters.captureMode == .completedSale)
        #expect(request.kind.transactionKind == .sale)
        #expect(CardPaymentKind.refundUnreferenced.transactionKind == .refund)
    }

    @Test func aCardRequestKeepsItsParametersInItsOwnObjectAndReadsThemBack() throws {
        let request = AuthorizeCardRequest(
            kind: .preAuthorization,
            parameters: PaymentParameters(
                amount: 7_00, currency: .eur, cardholderPresent: false, customerReference: "c-9",
                externalID: "order-17", statementDescriptor: "COFFEE", statementDescriptorSuffix: "T4",
                duplicateCheck: false, allowPartialApproval: true, captureMode: .tipAdjustment,
                installments: Installments(count: 3, intervalMonths: 1),
                basket: Basket(items: [BasketItem(name: "Coffee", quantity: 2, unitPrice: 3_50, taxBasisPoints: 700)])),
            emvData: "9F02", encryptedCardData: "01", ksn: "00", maskedPAN: "476173******0010",
            entryMode: .contactless, cvm: .notRequired)
        let data = try GatewayJSON.makeEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["parameters"] == nil)
        #expect(object["amount"] as? Int == 7_00 && object["maskedPAN"] as? String == "476173******0010")
        #expect(try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: data) == request)
    }

    @Test func transactionRoundTripsWithISODates() throws {
        let transaction = Transaction(
            id: TransactionID(rawValue: "tx_1")!, kind: .sale, status: .approved, requestedAmount: 1000,
            approvedAmount: 1000, tipAmount: 100, totalAmount: 1100, currency: .eur, authorizationCode: "123456",
            responseCode: "00", card: CardSummary(scheme: "visa", maskedPAN: "476173******0010"),
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        let data = try GatewayJSON.makeEncoder().encode(transaction)
        #expect(String(decoding: data, as: UTF8.self).contains(#""createdAt":"2027-01-15T08:00:00Z""#))
        #expect(try GatewayJSON.makeDecoder().decode(Transaction.self, from: data) == transaction)
    }

    @Test func searchAndStatisticsDefaults() throws {
        let search = try GatewayJSON.makeDecoder().decode(TransactionSearchRequest.self, from: Data("{}".utf8))
        #expect(search == TransactionSearchRequest())
        #expect(try GatewayJSON.makeEncoder().encode(SortOrder.ascending) == Data(#""asc""#.utf8))
        let statistics = try GatewayJSON.makeDecoder().decode(
            StatisticsRequest.self,
            from: Data(#"{"from":"2026-01-01T00:00:00Z","to":"2027-01-01T00:00:00Z","grouping":"month"}"#.utf8))
        #expect(!statistics.byStatus)
    }

    @Test func statementDescriptorRules() {
        #expect(GatewayValidation.statementDescriptorProblem(nil, suffix: nil) == nil)
        #expect(GatewayValidation.statementDescriptorProblem("SANDBOX SHOP", suffix: "ORDER 12") == nil)
        #expect(GatewayValidation.statementDescriptorProblem("", suffix: nil) != nil)
        #expect(GatewayValidation.statementDescriptorProblem("12345", suffix: nil) != nil)
        #expect(GatewayValidation.statementDescriptorProblem("SHOP <1>", suffix: nil) != nil)
        #expect(GatewayValidation.statementDescriptorProblem("SHOP", suffix: "it's") != nil)
        #expect(GatewayValidation.statementDescriptorProblem(String(repeating: "A", count: 23), suffix: nil) != nil)
        #expect(GatewayValidation.statementDescriptorProblem("ABCDEFGHIJ", suffix: "KLMNOPQRST") == nil)
        #expect(GatewayValidation.statementDescriptorProblem("ABCDEFGHIJ", suffix: "KLMNOPQRSTU") != nil)
        #expect(GatewayValidation.statementDescriptorProblem(nil, suffix: "X") != nil)
    }

    @Test func otherValueRules() {
        #expect(GatewayValidation.isHex("9F2608aB"))
        #expect(!GatewayValidation.isHex("9F2"))
        #expect(!GatewayValidation.isHex("zz"))
        #expect(!GatewayValidation.isHex(""))
        #expect(GatewayValidation.isValidExternalID(String(repeating: "x", count: 50)))
        #expect(!GatewayValidation.isValidExternalID(String(repeating: "x", count: 51)))
        #expect(GatewayValidation.isMaskedPAN("476173******0010"))
        #expect(!GatewayValidation.isMaskedPAN("4761739001010010"))
    }
}
