import Foundation
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// What an app prints for results and errors: one readable line, no storage internals and
/// no card number in clear.
@Suite(.timeLimit(.minutes(1)))
struct PrintedValuesTests {
    static let key = IdempotencyKey(rawValue: "sale-1")!

    @Test func anApprovedSalePrintsItsOutcomeAmountTransactionAndMaskedCard() {
        let result = PaymentResult(
            status: .approved, kind: .sale, requestedAmount: 12_34, approvedAmount: 12_34, currency: .eur,
            transactionID: TransactionID(rawValue: "txn_1"), idempotencyKey: Self.key, maskedPAN: "411111******1111",
            scheme: "visa")
        #expect("\(result)" == "approved sale 12.34 EUR (transaction txn_1, card visa 411111******1111)")
    }

    @Test func aPartialApprovalAndAFailurePrintWhatHappened() {
        let partial = PaymentResult(
            status: .approved, kind: .sale, requestedAmount: 50_00, approvedAmount: 30_00, currency: .eur,
            idempotencyKey: Self.key)
        #expect("\(partial)" == "approved sale 50.00 EUR, 30.00 EUR approved")
        let failed = PaymentResult(
            status: .failed, kind: .refund, requestedAmount: 5_00, approvedAmount: 0, currency: .eur,
            idempotencyKey: Self.key, reversed: true, error: MPOSError.readerLinkFailed)
        #expect("\(failed)" == "failed refund 5.00 EUR (reversed, error 3202: The card reader link failed.)")
    }

    @Test func errorsPrintTheirCodeAndMessage() throws {
        #expect("\(ReaderLinkError.linkClosed)" == "the reader link is closed")
        #expect("\(ReaderLinkError.timeout)" == "the reader did not answer in time")
        #expect(
            "\(ReaderLinkError.malformed(detail: "hello reply of 3 bytes"))"
                == "malformed reader data: hello reply of 3 bytes")
        #expect("\(MPOSError.readerLinkFailed)" == "MPOSError 3202 (reader): The card reader link failed.")
        #expect("\(try Money(amount: 12_34, currency: .eur))" == "12.34 EUR")
    }
}
