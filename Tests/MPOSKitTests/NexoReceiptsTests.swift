import Foundation
import MPOSCore
import TerminalAPI
import Testing

@testable import MPOSKit

/// A payment's receipts in a Terminal API `PaymentResponse`, laid out as Adyen's terminals send
/// them (checked against the receipts of Adyen's own library fixture).
@Suite(.timeLimit(.minutes(1)))
struct NexoReceiptsTests {
    static let fullPAN = "5413330089010434"

    static func result(
        _ status: PaymentStatus, cvm: CardholderVerification? = .pin, offlineID: UUID? = nil
    ) -> MPOSKit.PaymentResult {
        MPOSKit.PaymentResult(
            status: status, kind: .sale, requestedAmount: 12_50,
            approvedAmount: status == .declined ? 0 : 12_50,
            currency: .eur, transactionID: status == .approved ? TransactionID(rawValue: "txn_0042") : nil,
            idempotencyKey: IdempotencyKey(rawValue: "k")!,
            authorizationCode: status == .approved ? "123456" : nil,
            responseCode: "00", cvm: cvm, entryMode: .chip, maskedPAN: "541333******0434", scheme: "mc",
            emv: EMVReceiptSummary(aid: "A0000000041010", applicationLabel: "MASTERCARD"),
            pinVerified: cvm == .pin, date: Date(timeIntervalSince1970: 1_556_533_191), offlineID: offlineID)
    }

    static func response(_ result: MPOSKit.PaymentResult) -> PaymentResponse {
        NexoReplies.paymentResponse(
            result,
            sale: TransactionIdentification(transactionID: "S-1", timeStamp: NexoTimestamp(result.date)),
            poiID: "V400m-123456789", merchant: nil)
    }

    /// The `key` of each line of a receipt.
    static func keys(_ receipt: TerminalAPI.PaymentReceipt) -> [String] {
        (receipt.outputContent.outputText ?? []).compactMap { AdditionalResponse(text: $0.text)["key"] }
    }

    static func adyenReceipts() throws -> [TerminalAPI.PaymentReceipt] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(
                "TerminalAPITests/Fixtures/adyen-java-api-library/payment-sync-success.json")
        let response = try #require(try NexoCoder.decodeResponse(Data(contentsOf: url)).paymentResponse)
        return try #require(response.paymentReceipt)
    }

    @Test func anApprovalCarriesTheMerchantAndCustomerCopiesAsAdyenLaysThemOut() throws {
        let ours = try #require(Self.response(Self.result(.approved)).paymentReceipt)
        let adyen = try Self.adyenReceipts()
        #expect(ours.map(\.documentQualifier) == [.cashierReceipt, .customerReceipt])
        #expect(ours.map(\.documentQualifier) == adyen.map(\.documentQualifier))
        for (mine, theirs) in zip(ours, adyen) {
            #expect(mine.outputContent.outputFormat == .text)
            let lines = try #require(mine.outputContent.outputText)
            #expect(lines.allSatisfy { $0.endOfLineFlag == true })
            // Every line is one Adyen's terminal writes, in the same order.
            let adyenKeys = Self.keys(theirs)
            let ourKeys = Self.keys(mine)
            #expect(ourKeys.count == lines.count)
            #expect(Set(ourKeys).isSubset(of: Set(adyenKeys)), "\(Set(ourKeys).subtracting(adyenKeys))")
            let positions = ourKeys.filter { $0 != "filler" }.compactMap { adyenKeys.firstIndex(of: $0) }
            #expect(positions == positions.sorted())
        }
        let merchant = ours[0].outputContent.outputText ?? []
        let fields = merchant.map { AdditionalResponse(text: $0.text) }
        #expect(fields.first { $0["key"] == "pan" }?["value"] == "************0434")
        #expect(fields.first { $0["key"] == "authCode" }?["value"] == "123456")
        #expect(fields.first { $0["key"] == "txRef" }?["value"] == "txn_0042")
        #expect(fields.first { $0["key"] == "tid" }?["value"] == "V400m-123456789")
        #expect(fields.first { $0["key"] == "totalAmount" }?["value"] == "12.50 EUR")
        #expect(fields.first { $0["key"] == "txdate" }?["value"] == "29/04/19")
        #expect(fields.first { $0["key"] == "txtime" }?["value"] == "10:19:51")
        #expect(merchant.first { $0.text.hasSuffix("key=totalAmount") }?.characterStyle == "Bold")
        #expect(ours[0].requiredSignatureFlag == false)
    }

    @Test func theLinesReadBackAsTheSameCardApplication() {
        let response = Self.response(Self.result(.approved))
        let read = NexoOutcome.result(
            of: response, kind: .sale, requestedAmount: 12_50, currency: .eur,
            idempotencyKey: IdempotencyKey(rawValue: "k")!)
        #expect(read.emv?.aid == "A0000000041010")
        #expect(read.emv?.applicationLabel == "MASTERCARD")
    }

    @Test func noReceiptLineHoldsMoreThanTheLastFourDigits() throws {
        var result = Self.result(.approved)
        // A full number handed over by mistake is still cut to its last four.
        result.maskedPAN = Self.fullPAN
        let receipts = try #require(Self.response(result).paymentReceipt)
        let text = receipts.flatMap { $0.outputContent.outputText ?? [] }.map(\.text).joined(separator: "\n")
        #expect(!text.contains(Self.fullPAN))
        #expect(!text.contains("541333"))
        #expect(text.contains("0434"))
    }

    @Test func aSignedPaymentFlagsTheMerchantCopyForTheSignature() throws {
        let receipts = try #require(Self.response(Self.result(.approved, cvm: .signature)).paymentReceipt)
        #expect(receipts.map(\.requiredSignatureFlag) == [true, false])
        #expect(Self.keys(receipts[0]).contains("signatureTitle"))
        #expect(!Self.keys(receipts[1]).contains("signatureTitle"))
    }

    @Test func aSaleStoredOfflineSaysSoAndNamesItsStoredID() throws {
        let id = UUID(uuidString: "7D4A1C2E-0B39-4F1E-9C55-2E2B3A1F0C11")!
        let response = Self.response(Self.result(.approvedOffline, offlineID: id))
        #expect(response.poiData.poiTransactionID.transactionID == id.uuidString)
        #expect(response.paymentResult?.onlineFlag == false)
        let merchant = try #require(response.paymentReceipt?.first?.outputContent.outputText)
        let fields = merchant.map { AdditionalResponse(text: $0.text) }
        #expect(fields.first { $0["key"] == "offlineID" }?["value"] == id.uuidString)
        #expect(fields.first { $0["key"] == "approved" }?["name"] == "APPROVED OFFLINE")
        #expect(fields.first { $0["key"] == "authCode" } == nil)
    }

    @Test func refusalsCancellationsAndFailuresCarryNoReceiptAsAdyensMockTerminal() {
        for status in [PaymentStatus.declined, .cancelled, .failed] {
            #expect(Self.response(Self.result(status)).paymentReceipt == [], "\(status)")
        }
    }
}
