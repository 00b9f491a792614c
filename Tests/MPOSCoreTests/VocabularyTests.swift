import Foundation
import MPOSCore
import Testing

@Suite(.timeLimit(.minutes(2)))
struct VocabularyTests {
    @Test func transactionKindsHaveStableRawValues() {
        #expect(
            TransactionKind.allCases.map(\.rawValue) == [
                "sale", "refund", "saleVoid", "refundVoid", "authorization", "preAuthorization", "capture",
                "tipAdjustment", "cash", "sepa",
            ])
    }

    @Test func financialStatusesHaveStableRawValues() {
        #expect(
            FinancialStatus.allCases.map(\.rawValue) == [
                "approved", "declined", "processed", "failed", "cancelled", "pending", "partiallyApproved",
                "reversed", "refunded",
            ])
    }

    @Test func cardEntryModesHaveStableRawValues() {
        #expect(
            CardEntryMode.allCases.map(\.rawValue) == [
                "magstripe", "magstripeFallback", "chip", "contactless", "manual", "cardNotPresent",
            ])
    }

    @Test func cardholderVerificationsHaveStableRawValues() {
        #expect(
            CardholderVerification.allCases.map(\.rawValue) == [
                "signature", "pin", "pinAndSignature", "onDevice", "failed", "notRequired",
            ])
    }

    @Test func codesAsRawValueStrings() throws {
        let json = String(decoding: try JSONEncoder().encode([TransactionKind.tipAdjustment]), as: UTF8.self)
        #expect(json == #"["tipAdjustment"]"#)
        let status = try JSONDecoder().decode(FinancialStatus.self, from: Data(#""partiallyApproved""#.utf8))
        #expect(status == .partiallyApproved)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CardEntryMode.self, from: Data(#""swipe""#.utf8))
        }
    }
}
