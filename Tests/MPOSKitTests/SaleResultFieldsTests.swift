import Foundation
import GatewayAPI
import MPOSCore
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The sale result carries what the ECP seed's `ECPSaleResponse`, `ECPCardData` and
/// `ECPEmvData` carry: batch id, acquirer message, cardholder name, expiry, the application's
/// preferred name and the authorization response message.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SaleResultFieldsTests {
    @Test func anApprovedSaleCarriesTheBatchTheCardholderAndTheExpiry() async throws {
        let sandbox = try await Sandbox { $0.cardID = "unionpay" }
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(PaymentParameters(amount: 21_50, currency: .eur))
        #expect(result.status == .approved)
        #expect(result.cardholderName == "DEBIT/UNIONPAY")
        #expect(result.expiryMonth == 12 && result.expiryYear == 2049)
        #expect(result.emv?.applicationPreferredName == "UnionPay")
        #expect(result.emv?.applicationLabel == "UNIONPAY DEBIT")
        #expect(result.authorizationResponseMessage == "APPROVED")
        // The ECP seed's card brand and entry mode.
        #expect(result.scheme == "unionPay" && result.entryMode == .chip)
        #expect(Int(try #require(result.batchID)) != nil)
        #expect(result.acquirerMessage?.isEmpty == false)
        try await sandbox.close(terminal)
    }

    @Test func aDeclineSaysWhatItsResponseCodeMeans() async throws {
        let sandbox = try await Sandbox { $0.cardID = "visa-debit" }
        let terminal = try await sandbox.terminal()
        // More than the card's 500.00 balance, without partial approval.
        let result = try await terminal.sale(PaymentParameters(amount: 600_00, currency: .eur))
        #expect(result.status == .declined)
        #expect(result.responseCode == "51")
        #expect(result.authorizationResponseMessage == "INSUFFICIENT FUNDS")
        #expect(result.cardholderName == "DEBIT/VISA")
        #expect(result.emv?.applicationPreferredName == nil)
        try await sandbox.close(terminal)
    }

    @Test func aRefundCarriesTheGatewaysBatchAndMessage() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        // 31.00: 30.00 is the sandbox's amount that asks for a signature.
        let sale = try await terminal.sale(PaymentParameters(amount: 31_00, currency: .eur))
        let refund = try await terminal.refund(transactionID: try #require(sale.transactionID), amount: 10_00)
        #expect(refund.status == .approved)
        // The batch is still open: the refund settles with the sale.
        #expect(refund.batchID != nil && refund.batchID == sale.batchID)
        #expect(refund.acquirerMessage == "Processed")
        #expect(refund.cardholderName == "CREDIT/VISA" && refund.expiryYear == 2049)
        try await sandbox.close(terminal)
    }

    @Test func expiryIsReadFromYYMMOnlyWhenItIsADate() {
        #expect(CardSummary.expiryParts(yymm: "2212")! == (12, 2022))
        #expect(CardSummary.expiryParts(yymm: "4901")! == (1, 2049))
        #expect(CardSummary.expiryParts(yymm: "2213") == nil)
        #expect(CardSummary.expiryParts(yymm: "2200") == nil)
        #expect(CardSummary.expiryParts(yymm: "+112") == nil)
        #expect(CardSummary.expiryParts(yymm: "221") == nil)
        #expect(CardSummary.expiryParts(yymm: nil) == nil)
    }

    @Test func responseCodesHaveTheirMeanings() {
        #expect(AuthorizationResponseCode.message(for: "00") == "APPROVED")
        #expect(AuthorizationResponseCode.message(for: "05") == "DO NOT HONOUR")
        #expect(AuthorizationResponseCode.message(for: "54") == "EXPIRED CARD")
        #expect(AuthorizationResponseCode.message(for: "XX") == nil)
        var result = PaymentResult(
            status: .declined, kind: .sale, requestedAmount: 1, approvedAmount: 0, currency: .eur,
            idempotencyKey: IdempotencyKey(), responseCode: "55")
        #expect(result.authorizationResponseMessage == "INCORRECT PIN")
        result.responseCode = nil
        #expect(result.authorizationResponseMessage == nil)
    }
}
