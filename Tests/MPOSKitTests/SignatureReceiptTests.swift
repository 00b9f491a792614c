import Foundation
import MPOSCore
import PrinterSimulator
import ReaderLink
import ReaderSimulator
import Testing

@testable import MPOSKit

/// The reader pad's signature reaches the app with the approval and prints on the merchant
/// copy, above the line it is checked against.
@Suite(.timeLimit(.minutes(1)))
struct SignatureReceiptTests {
    static func rasters(_ bytes: [UInt8]) -> [RasterImage] {
        var decoder = EscPosDecoder()
        return decoder.feed(bytes).compactMap { if case .rasterImage(let image) = $0 { image } else { nil } }
    }

    @Test func theMerchantCopyPrintsThePadSignatureAndTheCustomerCopyDoesNot() throws {
        let pad = try #require(SignaturePad.sample)
        var receipt = ReceiptRenderingTests.signature()
        receipt.signature = pad
        let bitmap = try pad.bitmap()
        let merchant = Self.rasters(receipt.escPos(.merchant, profile: .paper58mm))
        #expect(merchant == [RasterImage(mode: 0, widthBytes: 30, height: 80, data: bitmap.bytes)])
        #expect(Self.rasters(receipt.escPos(.customer, profile: .paper58mm)).isEmpty)
        // Without a pad signature the merchant copy keeps only its line to sign on paper.
        receipt.signature = nil
        #expect(Self.rasters(receipt.escPos(.merchant, profile: .paper58mm)).isEmpty)
    }

    @Test func anAcceptedSignatureComesBackWithTheResultAndThePrompt() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let shown = Locked<CardholderSignature?>(nil)
        await terminal.setSignatureHandler { request in
            shown.withLock { $0 = request.receipt.signature }
            return .accept
        }
        let result = try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur))
        let pad = try #require(SignaturePad.sample)
        #expect(result.status == .approved && result.signature == pad)
        #expect(shown.withLock { $0 } == pad)
        #expect(Array(try #require(result.signature).png().prefix(8)) == PNGEncoder.signature)
        try await sandbox.close(terminal)
    }

    @Test func aDeclinedSignatureIsNotKept() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        await terminal.setSignatureHandler { _ in .decline }
        let result = try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur))
        #expect(result.status == .declined && result.signature == nil)
        try await sandbox.close(terminal)
    }
}
