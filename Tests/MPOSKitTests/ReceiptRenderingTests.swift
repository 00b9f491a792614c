import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// The customer and merchant copies, as text and HTML, for the receipts the card schemes
/// certify: contact with PIN, contactless without CVM, signature, and a decline.
@Suite(.timeLimit(.minutes(2))) struct ReceiptRenderingTests {
    /// 2027-01-15 08:00:00 UTC.
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func contactPIN() -> PaymentReceipt {
        PaymentReceipt(
            merchantName: "Corner Café", merchantAddress: "Einsteinring 35\n85609 Munich",
            merchantID: "m-100121",
            terminalID: "T-0822", receiptNumber: 2337, date: date, kind: .sale, status: .approved,
            amount: 9_00,
            currency: .eur, maskedPAN: "476173******0010", scheme: "visa", entryMode: .chip,
            aid: "A0000000031010",
            applicationLabel: "VISA CREDIT", cryptogram: "5E94616BBBB7822B", tvr: "0000008000", tsi: "E800",
            cvm: .pin,
            authorizationCode: "153216", responseCode: "00",
            transactionID: TransactionID(rawValue: "txn_2337"),
            batchID: "17")
    }

    static func contactlessNoCVM() -> PaymentReceipt {
        var receipt = contactPIN()
        receipt.scheme = "mastercard"
        receipt.maskedPAN = "541333******4111"
        receipt.entryMode = .contactless
        receipt.aid = "A0000000041010"
        receipt.applicationLabel = "MASTERCARD"
        receipt.cvm = .notRequired
        receipt.amount = 10_00
        return receipt
    }

    static func signature() -> PaymentReceipt {
        var receipt = contactPIN()
        receipt.cvm = .signature
        receipt.signatureRequired = true
        return receipt
    }

    static func declined() -> PaymentReceipt {
        var receipt = contactPIN()
        receipt.status = .declined
        receipt.authorizationCode = nil
        receipt.responseCode = "05"
        receipt.batchID = nil
        return receipt
    }

    /// Every field the schemes require, on both copies, in text and in HTML.
    @Test(arguments: ReceiptCopy.allCases)
    func aContactPINSaleShowsTheMandatoryFields(copy: ReceiptCopy) {
        let receipt = Self.contactPIN()
        for rendered in [receipt.text(copy), receipt.html(copy)] {
            for field in [
                "Corner Café", "Einsteinring 35", "85609 Munich", "m-100121", "T-0822", "2337",
                "2027-01-15 08:00:00 UTC",
                "SALE", "9.00 EUR", "476173******0010", "VISA", "CHIP (CONTACT)", "A0000000031010",
                "VISA CREDIT",
                "5E94616BBBB7822B", "0000008000", "E800", "PIN VERIFIED", "153216", "00 APPROVED", "txn_2337",
                "17",
                "APPROVED",
            ] {
                #expect(rendered.contains(field), "\(copy) lacks \(field)")
            }
            #expect(rendered.contains(copy == .customer ? "CUSTOMER COPY" : "MERCHANT COPY"))
            #expect(!rendered.contains(copy == .customer ? "MERCHANT COPY" : "CUSTOMER COPY"))
            #expect(!rendered.contains("Cardholder signature") && !rendered.contains("CONTACTLESS"))
        }
        let text = receipt.text(copy)
        let lines = text.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("TC ") } && !lines.contains { $0.hasPrefix("AC ") })
        #expect(lines.allSatisfy { $0.count <= PaymentReceipt.defaultWidth })
    }

    @Test func aContactlessSaleWithoutCVMSaysSoInTheHeader() {
        let receipt = Self.contactlessNoCVM()
        for copy in ReceiptCopy.allCases {
            let text = receipt.text(copy)
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let header = lines.firstIndex(of: "SALE - CONTACTLESS")
            let card = lines.firstIndex { $0.hasPrefix("Card number") }
            #expect(header != nil && card != nil && header! < card!)
            #expect(text.contains("NO CARDHOLDER VERIFICATION") && text.contains("541333******4111"))
            #expect(text.contains("A0000000041010") && text.contains("MASTERCARD"))
            #expect(!text.contains("PIN VERIFIED") && !text.contains("Cardholder signature"))
            #expect(receipt.html(copy).contains("SALE - CONTACTLESS"))
        }
    }

    /// The Accept seed's contact receipt: one 9.00 line at 10 % tax, 0.81 of it tax.
    @Test(arguments: ReceiptCopy.allCases)
    func basketLinesAndTaxesShowWithTheirAmounts(copy: ReceiptCopy) {
        var receipt = Self.contactPIN()
        receipt.lines = [
            ReceiptLine(description: "No description", quantity: 1, unitPrice: 9_00, total: 9_00, taxBasisPoints: 1_000)
        ]
        receipt.taxes = ReceiptTax.summary(of: receipt.lines)
        for rendered in [receipt.text(copy), receipt.html(copy)] {
            for row in ["1 x No description", "9.00 EUR", "Prices include tax", "Net 10 %", "8.19 EUR", "Tax 10 %", "0.81 EUR"] {
                #expect(rendered.contains(row), "\(row)")
            }
        }
        #expect(!Self.contactPIN().text(copy).contains("Prices include tax"))
    }

    @Test func onlyTheMerchantCopyCarriesTheSignatureLine() {
        let receipt = Self.signature()
        let merchant = receipt.text(.merchant)
        let customer = receipt.text(.customer)
        #expect(merchant.contains("Cardholder signature") && merchant.contains("X____"))
        #expect(!customer.contains("Cardholder signature") && !customer.contains("X____"))
        #expect(customer.contains("Signed on the merchant copy."))
        #expect(!merchant.contains("PIN VERIFIED") && !customer.contains("PIN VERIFIED"))
        #expect(receipt.html(.merchant).contains("class=\"signature\""))
        #expect(!receipt.html(.customer).contains("class=\"signature\""))
    }

    @Test func aDeclineShowsTheResponseAndNoVerification() {
        let receipt = Self.declined()
        for copy in ReceiptCopy.allCases {
            let text = receipt.text(copy)
            #expect(text.contains("DECLINED") && text.contains("05 DO NOT HONOUR"))
            #expect(text.contains("Nothing was charged."))
            #expect(!text.contains("Approval code") && !text.contains("PIN VERIFIED"))
            #expect(!text.contains("APPROVED"))
            let lines = text.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("AC ") } && !lines.contains { $0.hasPrefix("TC ") })
            #expect(text.contains("476173******0010") && text.contains("9.00 EUR"))
        }
    }

    @Test func aReplayedCryptogramsDeclineIsNamed() {
        var receipt = Self.declined()
        receipt.responseCode = "63"
        #expect(receipt.text(.customer).contains("63 SECURITY VIOLATION"))
    }

    @Test func markupInValuesIsEscaped() {
        var receipt = Self.contactPIN()
        receipt.merchantName = "Bob's <script>alert(1)</script> & \"Grill\""
        receipt.merchantAddress = "<b>Main</b> St"
        let html = receipt.html(.customer)
        #expect(!html.contains("<script>") && !html.contains("<b>"))
        #expect(html.contains("Bob&#39;s &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Grill&quot;"))
        #expect(html.contains("&lt;b&gt;Main&lt;/b&gt; St"))
        // Only the template's own tags remain.
        let tags = Set(html.matches(of: /<\/?([A-Za-z0-9!]+)/).map { String($0.output.1).lowercased() })
        #expect(
            tags.isSubset(of: [
                "!doctype", "html", "head", "meta", "title", "style", "body", "div", "h1", "p", "span", "hr",
            ]))
    }

    @Test func aFullCardNumberIsMaskedNotPrinted() {
        let receipt = PaymentReceipt(
            merchantName: "M", date: Self.date, kind: .sale, status: .approved, amount: 1, currency: .eur,
            maskedPAN: "4111111111111111")
        #expect(receipt.maskedPAN == "411111******1111")
        #expect(!receipt.text(.merchant).contains("4111111111111111"))
        #expect(PaymentReceipt.masked("476173******0010") == "476173******0010")
    }

    @Test func aResultBecomesAReceiptWithTheMerchantsDetails() {
        let result = PaymentResult(
            status: .approved, kind: .sale, requestedAmount: 12_34, approvedAmount: 12_34, currency: .eur,
            transactionID: TransactionID(rawValue: "txn_1"), idempotencyKey: IdempotencyKey(),
            authorizationCode: "A1B2C3",
            responseCode: "00", cvm: .pin, entryMode: .chip, maskedPAN: "411111******1111", scheme: "visa",
            emv: EMVReceiptSummary(
                aid: "A0000000031010", applicationLabel: "VISA", transactionCertificate: "0102030405060708",
                tvr: "0000000000", tsi: "E800"),
            pinVerified: true, merchantName: "Shop", date: Self.date)
        let merchant = MerchantInfo(
            id: "m-1", name: "Shop GmbH", currency: .eur, country: "DE", categoryCode: "5999",
            address: "Hauptstr. 1")
        let receipt = PaymentReceipt(result, merchant: merchant)
        let text = receipt.text(.customer)
        for field in [
            "Shop GmbH", "Hauptstr. 1", "m-1", "12.34 EUR", "A1B2C3", "0102030405060708", "E800",
            "PIN VERIFIED",
        ] {
            #expect(text.contains(field), "lacks \(field)")
        }
        let declined = PaymentReceipt(
            PaymentResult(
                status: .declined, kind: .sale, requestedAmount: 10_00, approvedAmount: 0, currency: .eur,
                idempotencyKey: IdempotencyKey(), authorizationCode: "IGNORE", responseCode: "05", cvm: .pin,
                date: Self.date))
        #expect(declined.amount == 10_00 && declined.authorizationCode == nil)
        #expect(!declined.text(.customer).contains("PIN VERIFIED"))
    }

    @Test func recipientsAreCheckedBeforeSending() throws {
        #expect(try ReceiptRecipient.email(" anna@example.com ").address == "anna@example.com")
        #expect(try ReceiptRecipient.phone("+49 151 1234-5678").channel == .sms)
        for bad in [
            "", "anna", "anna@", "@example.com", "anna@example", "an na@example.com", "a@b@c.de", "anna@.com",
        ] {
            #expect(throws: MPOSError.invalidEmailAddress) { try ReceiptRecipient.email(bad) }
        }
        for bad in ["", "12345", "+49 151 abc", "1234567890123456", "phone"] {
            #expect(throws: MPOSError.invalidPhoneNumber) { try ReceiptRecipient.phone(bad) }
        }
    }
}
