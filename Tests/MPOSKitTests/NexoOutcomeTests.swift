import Foundation
import MPOSKit
import TerminalAPI
import Testing

/// MPOSKit's outcomes as Terminal API responses, checked against the responses Adyen's mock
/// terminal gives for the same test-acquirer amounts.
@Suite(.timeLimit(.minutes(2)))
struct NexoOutcomeTests {
    private func result(
        _ status: PaymentStatus, code: String? = nil, approved: Int64 = 0, error: MPOSError? = nil
    ) -> MPOSKit.PaymentResult {
        MPOSKit.PaymentResult(
            status: status, kind: .sale, requestedAmount: 1_24, approvedAmount: approved, currency: .eur,
            idempotencyKey: IdempotencyKey(rawValue: "k")!, responseCode: code, error: error)
    }

    /// Adyen's mock terminal answer for one of its refusal amounts (in the TerminalAPI fixtures).
    private func adyenResponse(_ name: String) throws -> Response {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TerminalAPITests/Fixtures/adyen-mock-terminal-api/\(name).json")
        return try #require(try NexoCoder.decodeResponse(Data(contentsOf: url)).paymentResponse?.response)
    }

    @Test func sandboxRefusalsMatchAdyensTestAcquirer() throws {
        // The amount endings of docs/test-cards.md, their sandbox response codes, and the
        // mock terminal's file for the same amount.
        let cases = [
            ("51", "payment__124_paymentNotEnoughBalanceResponse"),
            ("62", "payment__125_paymentCardBlockedResponse"),
            ("54", "payment__126_paymentCardExpiredResponse"),
            ("13", "payment__127_paymentInvalidAmountResponse"),
            ("14", "payment__128_paymentInvalidCardResponse"),
            ("55", "payment__134_paymentWrongPinResponse"),
        ]
        for (code, file) in cases {
            let ours = NexoOutcome.response(for: result(.declined, code: code))
            let adyen = try adyenResponse(file)
            #expect(ours.result == adyen.result, "\(code)")
            #expect(ours.errorCondition == adyen.errorCondition, "\(code)")
            #expect(ours.additionalResponse?.message == adyen.additionalResponse?.message, "\(code)")
            #expect(
                ours.additionalResponse?.refusalReason == adyen.additionalResponse?.refusalReason, "\(code)")
        }
    }

    @Test func aMerchantAbortReadsAsAdyensAbortedPayment() throws {
        let ours = NexoOutcome.response(
            for: result(.cancelled, error: .paymentCancelled), abortedByMerchant: true)
        #expect(ours.result == .failure)
        #expect(ours.errorCondition == .aborted)
        #expect(ours.additionalResponse?.message == "104 Merchant cancelled")
        #expect(try adyenResponse("abortPayment__abortPaymentResponse").errorCondition == ours.errorCondition)
        #expect(
            NexoOutcome.response(for: result(.cancelled, error: .paymentCancelled)).errorCondition == .cancel)
    }

    @Test func approvalsAreSuccessOrPartial() {
        #expect(
            NexoOutcome.response(for: result(.approved, code: "00", approved: 1_24))
                == Response(result: .success))
        #expect(NexoOutcome.response(for: result(.approved, code: "10", approved: 1_00)).result == .partial)
    }

    @Test func aSaleApprovedOfflineIsASuccessNamingItsStoredID() throws {
        let id = UUID()
        var stored = result(.approvedOffline, approved: 1_24)
        stored.offlineID = id
        let response = NexoOutcome.response(for: stored)
        #expect(response.result == .success)
        #expect(response.errorCondition == nil)
        let additional = try #require(response.additionalResponse)
        #expect(additional["message"] == "APPROVED_OFFLINE")
        #expect(additional["offlineID"] == id.uuidString)
    }

    @Test func errorsMapToTheirConditions() throws {
        #expect(NexoOutcome.response(for: .terminalBusy).errorCondition == .busy)
        #expect(try adyenResponse("paymentBusy__paymentBusyResponse").errorCondition == .busy)
        #expect(NexoOutcome.response(for: .gatewayUnreachable).errorCondition == .unreachableHost)
        #expect(NexoOutcome.response(for: .readerNotConnected).errorCondition == .unavailableDevice)
        #expect(NexoOutcome.response(for: .notLoggedIn).errorCondition == .loggedOut)
        #expect(NexoOutcome.response(for: .amountNotPositive).errorCondition == .notAllowed)
        #expect(NexoOutcome.response(for: .journalFailed).errorCondition == .unavailableService)
        #expect(
            NexoOutcome.response(for: result(.failed, error: .readerLinkFailed)).errorCondition
                == .unavailableDevice)
    }

    @Test func paymentTypesAndAmountsMapToSalesAndRefundsInMinorUnits() throws {
        #expect(NexoOutcome.transactionKind(for: nil) == .sale)
        #expect(NexoOutcome.transactionKind(for: .normal) == .sale)
        #expect(NexoOutcome.transactionKind(for: .refund) == .refund)
        #expect(NexoOutcome.transactionKind(for: .cashAdvance) == nil)
        let (minor, currency) = try NexoOutcome.minorUnits(NexoAmount("1.24")!, currency: "EUR")
        #expect(minor == 1_24)
        #expect(currency == .eur)
        #expect(try NexoOutcome.minorUnits(NexoAmount("124")!, currency: "JPY").0 == 124)
        #expect(
            throws: NexoError(
                .amountPrecision, field: "RequestedAmount",
                message: "1.5 has more than 0 decimals for its currency")
        ) {
            try NexoOutcome.minorUnits(NexoAmount("1.5")!, currency: "JPY", field: "RequestedAmount")
        }
        #expect(
            throws: NexoError(
                .invalidValue, field: nil,
                message: "currency XYZ is not an ISO 4217 currency with minor units")
        ) {
            try NexoOutcome.minorUnits(NexoAmount("1")!, currency: "XYZ")
        }
    }
}
