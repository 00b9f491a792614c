import Foundation
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// Handpoint's transaction-details dictionary: the seed's keys, typed, and its XML.
@Suite(.timeLimit(.minutes(1)))
struct TransactionDetailsTests {
    static let reader = DeviceInfo(
        serialNumber: "SIM-000123", manufacturer: "MPOSKit", model: "Sim 1", applicationName: "EFT",
        applicationVersion: "2.4.1", emvParameterVersion: "2026-11", publicKeyVersion: "7",
        battery: BatteryStatus(percentage: 87, isCharging: true, hasExternalPower: false, millivolts: 4083))

    /// An approved, recovered chip sale whose approval code needs escaping.
    static func approved() -> PaymentResult {
        PaymentResult(
            status: .approved, kind: .sale, requestedAmount: 40_00, approvedAmount: 45_00, currency: .gbp,
            transactionID: TransactionID(rawValue: "tx_heft_1")!, idempotencyKey: IdempotencyKey(rawValue: "key-heft-1")!,
            authorizationCode: "A<1>&\"B'", responseCode: "00", cvm: .pin, entryMode: .chip,
            maskedPAN: "476173******0119", scheme: "visa", emv: EMVReceiptSummary(aid: "A0000000031010"),
            pinVerified: true, recovered: true, date: Date(timeIntervalSince1970: 1_795_874_709))
    }

    static func fixture(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func theXMLMatchesTheHandWrittenFixture() throws {
        let details = TransactionDetails(Self.approved(), reader: Self.reader, gratuityAmount: 5_00)
        #expect(details.xml == (try Self.fixture("transaction-details-approved.xml")))
    }

    @Test func theDictionaryHasTheSeedsKeysAndOnlyThePresentOnes() {
        let details = TransactionDetails(Self.approved(), reader: Self.reader, gratuityAmount: 5_00)
        let dictionary = details.dictionary
        #expect(dictionary["GratuityAmount"] == "500" && dictionary["GratuityPercentage"] == "12.50")
        #expect(dictionary["TotalAmount"] == "4500" && dictionary["EFTTimestamp"] == "20261128140509")
        #expect(dictionary["CardTypeId"] == "A0000000031010" && dictionary["RecoveredTransaction"] == "true")
        #expect(dictionary["OriginalEFTTransactionID"] == nil && dictionary["ErrorMessage"] == nil)
        // No card number of any kind leaves in the details.
        #expect(!details.xml.contains("476173") && !details.xml.contains("0119"))
    }

    @Test func aVoidNamesItsOriginalAndARecoveredKeyIsLeftOutWhenFalse() {
        var void = Self.approved()
        void.kind = .saleVoid
        void.recovered = false
        let original = TransactionID(rawValue: "tx_original")!
        let details = TransactionDetails(void, originalTransactionID: original)
        #expect(details.operation == .voidSale && details.statusMessage == "REVERSAL ACCEPTED")
        #expect(details.dictionary["OriginalEFTTransactionID"] == "tx_original")
        #expect(details.dictionary["RecoveredTransaction"] == nil && details.dictionary["SerialNumber"] == nil)
    }

    @Test func aCancelledSaleIsACancelSaleWithTheVoidText() {
        var cancelled = Self.approved()
        cancelled.status = .cancelled
        cancelled.authorizationCode = nil
        cancelled.error = .paymentCancelled
        let details = TransactionDetails(cancelled)
        #expect(details.operation == .cancelSale && details.outcome == .cancelled)
        #expect(details.statusMessage == "TRANSACTION VOID")
        #expect(details.errorMessage == MPOSError.paymentCancelled.message)
        #expect(details.gratuityAmount == nil && details.dictionary["GratuityPercentage"] == nil)
    }
}
