import Foundation
import GatewayAPI
import MPOSCore
import SandboxCards
import Testing

@testable import MPOSKit

/// A printed receipt is its text rendering: with the ESC/POS commands stripped, the job is
/// `text(_:width:)` at the profile's columns, line for line.
@Suite(.timeLimit(.minutes(2))) struct EscPosReceiptTests {
    static let profiles: [PrinterProfile] = [.paper58mm, .paper80mm, .datecsDPP250]

    /// The receipt of a sale with `card`, as ReceiptRenderingTests builds them: the card's
    /// first application, its verification, and a decline for the expired and blocked cards.
    static func receipt(for card: SandboxCard) -> PaymentReceipt {
        let application = card.applications.first
        let responseCode = card.id == "expired" ? "54" : card.behaviours.blocked ? "62" : "00"
        let approved = responseCode == "00"
        var receipt = ReceiptRenderingTests.contactPIN()
        receipt.status = approved ? .approved : .declined
        receipt.currency = card.currency
        receipt.maskedPAN = card.pan.masked
        receipt.scheme = card.scheme.rawValue
        receipt.entryMode = application == nil ? .magstripe : .chip
        receipt.aid = application?.aidHex
        receipt.applicationLabel = application?.label
        receipt.cvm = card.cvm == .signature ? .signature : card.cvm == .noCVM ? .notRequired : .pin
        receipt.signatureRequired = card.cvm == .signature
        receipt.authorizationCode = approved ? "153216" : nil
        receipt.responseCode = responseCode
        receipt.transactionID = TransactionID(rawValue: "txn_\(card.id)")
        return receipt
    }

    /// Two lines at 19 % and one at 7 %: a basket with two tax rates.
    static func twoTaxRates() -> PaymentReceipt {
        var receipt = ReceiptRenderingTests.contactPIN()
        receipt.lines = [
            ReceiptLine(
                description: "Cappuccino", quantity: 2, unitPrice: 3_20, total: 6_40, taxBasisPoints: 1_900),
            ReceiptLine(
                description: "Croissant", quantity: 1, unitPrice: 2_60, total: 2_60, taxBasisPoints: 700),
        ]
        receipt.taxes = ReceiptTax.summary(of: receipt.lines)
        receipt.amount = 9_00
        return receipt
    }

    func expectPrintedTextIsTheTextRendering(_ receipt: PaymentReceipt, _ label: String) throws {
        for profile in Self.profiles {
            for copy in ReceiptCopy.allCases {
                let job = receipt.escPosJob(copy, profile: profile)
                let stripped = try EscPosStripper.strip(job.bytes, codePage: profile.codePage)
                let text = receipt.text(copy, width: profile.columns).components(separatedBy: "\n")
                #expect(stripped.lines == text, "\(label) \(copy) \(profile)")
                #expect(stripped.qrData == [Array(receipt.transactionID!.rawValue.utf8)])
                #expect(job.unmappedCharacters.isEmpty)
                #expect(job.bytes == receipt.escPos(copy, profile: profile))
            }
        }
    }

    @Test func everySandboxCardsReceiptPrintsAsItsText() throws {
        #expect(SandboxCards.all.count > 10)
        for card in SandboxCards.all {
            try expectPrintedTextIsTheTextRendering(Self.receipt(for: card), card.id)
        }
    }

    @Test func aBasketWithTwoTaxRatesPrintsAsItsText() throws {
        let receipt = Self.twoTaxRates()
        #expect(receipt.taxes.count == 2)
        #expect(receipt.text(.customer).contains("Tax 19 %") && receipt.text(.customer).contains("Tax 7 %"))
        try expectPrintedTextIsTheTextRendering(receipt, "two tax rates")
    }

    @Test func theJobStartsWithInitAndCodePageAndEndsWithTheCut() {
        let receipt = ReceiptRenderingTests.contactPIN()
        let job = receipt.escPos(.customer, profile: .paper58mm)
        #expect(Array(job.prefix(5)) == [0x1B, 0x40, 0x1B, 0x74, 0x13])
        #expect(Array(job.suffix(4)) == [0x1D, 0x56, 0x42, 0x00])
        let datecs = receipt.escPos(.customer, profile: .datecsDPP250)
        #expect(Array(datecs.prefix(5)) == [0x1B, 0x40, 0x1B, 0x75, 0x01])
        #expect(Array(datecs.suffix(3)) == [0x1B, 0x64, 0x04])
        #expect(datecs.firstRange(of: [0x1D, 0x56]) == nil)
    }

    @Test func theTitleIsBoldAndDoubleHeightAndTheOutcomeBold() throws {
        let receipt = ReceiptRenderingTests.contactPIN()
        let job = receipt.escPos(.customer, profile: .paper58mm)
        let title = CodePage.cp858.encode(receipt.text(.customer).components(separatedBy: "\n")[0]).bytes
        let styledTitle: [UInt8] =
            [0x1B, 0x45, 0x01, 0x1D, 0x21, 0x01] + title + [0x0A, 0x1D, 0x21, 0x00, 0x1B, 0x45, 0x00]
        #expect(Array(job[5..<(5 + styledTitle.count)]) == styledTitle)
        let approved = CodePage.cp858.encode("            APPROVED").bytes
        #expect(job.firstRange(of: [0x1B, 0x45, 0x01] + approved + [0x0A, 0x1B, 0x45, 0x00]) != nil)
        // The QR code is centred, then alignment returns to the left.
        #expect(job.firstRange(of: [0x1B, 0x61, 0x01, 0x1D, 0x28, 0x6B]) != nil)
        #expect(job.firstRange(of: [0x31, 0x51, 0x30, 0x1B, 0x61, 0x00]) != nil)
    }

    @Test func aLogoPrintsCentredAtTheTopCroppedToThePaper() throws {
        let receipt = ReceiptRenderingTests.contactPIN()
        let logo = try MonochromeBitmap(width: 16, height: 2) { x, _ in x < 8 }
        let job = receipt.escPos(.customer, profile: .paper58mm, logo: logo)
        let expected: [UInt8] =
            [0x1B, 0x40, 0x1B, 0x74, 0x13, 0x1B, 0x61, 0x01]
            + [0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0xFF, 0x00, 0xFF, 0x00] + [0x1B, 0x61, 0x00]
        #expect(Array(job.prefix(expected.count)) == expected)
        let wide = try MonochromeBitmap(width: 1_000, height: 1) { _, _ in true }
        let cropped = receipt.escPos(.customer, profile: .paper58mm, logo: wide)
        // 384 dots = 48 bytes a row.
        #expect(Array(cropped[8..<16]) == [0x1D, 0x76, 0x30, 0x00, 0x30, 0x00, 0x01, 0x00])
        let stripped = try EscPosStripper.strip(cropped, codePage: .cp858)
        #expect(stripped.lines == receipt.text(.customer).components(separatedBy: "\n"))
    }

    @Test func aMerchantNameThePageCannotPrintIsReported() throws {
        var receipt = ReceiptRenderingTests.contactPIN()
        receipt.merchantName = "Łódź 餃子"
        let job = receipt.escPosJob(.customer, profile: .paper58mm)
        #expect(job.unmappedCharacters == ["餃", "子"])
        let lines = try EscPosStripper.strip(job.bytes, codePage: .cp858).lines
        #expect(lines[0].hasSuffix("Lódz ??"))
        #expect(lines.count == receipt.text(.customer).components(separatedBy: "\n").count)
    }

    @Test func aReceiptWithoutATransactionIDHasNoQRCode() throws {
        var receipt = ReceiptRenderingTests.declined()
        receipt.transactionID = nil
        let job = receipt.escPos(.merchant, profile: .paper80mm)
        #expect(try EscPosStripper.strip(job, codePage: .cp858).qrData.isEmpty)
    }
}
