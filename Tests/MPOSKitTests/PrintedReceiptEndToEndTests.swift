import Foundation
import MPOSCore
import PrinterSimulator
import SandboxCards
import Testing

@testable import MPOSKit

/// A receipt printed over TCP on the printer emulator decodes to its text rendering, line for
/// line: every sandbox card and a basket with two tax rates.
@Suite(.timeLimit(.minutes(3))) struct PrintedReceiptEndToEndTests {
    /// 48 columns with a cutter, and 32 in the Datecs dialect (`ESC u`, no cutter); the 58 mm
    /// profile differs from the Datecs one only in those, which EscPosReceiptTests covers.
    static let profiles: [(PrinterProfile, PrinterModel)] = [(.paper80mm, .paper80mm), (.datecsDPP250, .paper58mm)]

    /// Prints both copies of each receipt on one emulator per profile, each job over its own
    /// connection, and compares the decoded lines with the text rendering.
    func expectPrintsAsText(
        _ receipts: [(PaymentReceipt, String)], profiles: [(PrinterProfile, PrinterModel)] = Self.profiles
    ) async throws {
        for (profile, model) in profiles {
            let served = try await ServedPrinter(model: model)
            var jobs = served.jobs.makeAsyncIterator()
            let printer = served.printer(profile)
            for (receipt, label) in receipts {
                for copy in ReceiptCopy.allCases {
                    let report = await printer.print(receipt, copy: copy).result()
                    try #require(
                        report.error == nil, "\(label) \(copy) \(profile): \(report.error?.message ?? "")")
                    #expect(report.status?.isReady == true)
                    let job = try #require(await jobs.next())
                    var expected = receipt.text(copy, width: profile.columns).components(separatedBy: "\n")
                    // A printer without a cutter ends the job with `ESC d 4`: four blank lines.
                    if !profile.hasCutter { expected += Array(repeating: "", count: 4) }
                    #expect(job.lines == expected, "\(label) \(copy) \(profile)")
                    #expect(job.cut == profile.hasCutter)
                    let qr = job.elements.compactMap {
                        if case .qrCode(let data, _, _) = $0 { data } else { nil }
                    }
                    #expect(qr == [Array(receipt.transactionID!.rawValue.utf8)])
                }
            }
            await served.close()
        }
    }

    @Test func everySandboxCardsReceiptPrintsAsItsText() async throws {
        #expect(SandboxCards.all.count > 10)
        // On the Datecs profile, whose dialect and missing cutter make it the hardest; every
        // profile renders every card in EscPosReceiptTests, and the basket below prints on both.
        try await expectPrintsAsText(
            SandboxCards.all.map { (EscPosReceiptTests.receipt(for: $0), $0.id) }, profiles: [(.datecsDPP250, .paper58mm)])
    }

    @Test func aBasketWithTwoTaxRatesPrintsAsItsText() async throws {
        let receipt = EscPosReceiptTests.twoTaxRates()
        #expect(receipt.taxes.count == 2)
        try await expectPrintsAsText([(receipt, "two tax rates")])
    }

    @Test func theDatecsCodeTableIsHonouredSoAccentsPrint() async throws {
        var receipt = EscPosReceiptTests.twoTaxRates()
        receipt.merchantName = "Café Zürich Ø"
        let served = try await ServedPrinter(model: .paper58mm)
        var jobs = served.jobs.makeAsyncIterator()
        try await served.printer(.datecsDPP250).print(receipt, copy: .customer).result().get()
        let job = try #require(await jobs.next())
        // CP850 has é, ü and Ø; CP437 (what the printer would fall back to) has no Ø.
        #expect(job.lines.contains { $0.contains("Café Zürich Ø") })
        await served.close()
    }
}
