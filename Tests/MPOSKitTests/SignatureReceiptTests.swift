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
        // The gateway keeps the image with the transaction and gives it back on lookup.
        #expect(result.signatureStored)
        let id = try #require(result.transactionID)
        #expect(try await terminal.receipts.signature(transactionID: id) == Data(pad.png()))
        try await sandbox.close(terminal)
    }

    /// The Accept seed's `AcceptSignatureRequest`: a reader without a pad, the cardholder signs
    /// on the phone, and the drawing goes back into the running payment.
    @Test func aSignatureCapturedOnThePhoneIsThePaymentsAndIsStoredWithIt() async throws {
        let sandbox = try await Sandbox { $0.signaturePad = nil }
        let terminal = try await sandbox.terminal()
        let drawn = try CardholderSignature(
            width: 200, height: 60, strokes: [[.init(x: 5, y: 50), .init(x: 60, y: 8), .init(x: 190, y: 40)]])
        let offeredPad = Locked<CardholderSignature??>(nil)
        await terminal.setSignatureHandler { request in
            offeredPad.withLock { $0 = .some(request.receipt.signature) }
            return .acceptSigned(drawn)
        }
        let result = try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur))
        // The reader had no drawing to offer; the app's is the payment's.
        #expect(offeredPad.withLock { $0 } == .some(nil))
        #expect(result.status == .approved && result.signature == drawn)
        #expect(PaymentReceipt(result).signature == drawn)
        #expect(result.signatureStored)
        let id = try #require(result.transactionID)
        #expect(try await terminal.receipts.signature(transactionID: id) == Data(drawn.png()))
        try await sandbox.close(terminal)
    }

    /// A reader's own pad drawing is the cardholder's signature: an app's drawing does not replace it.
    @Test func theReadersPadDrawingTakesPrecedenceOverTheApps() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let drawn = try CardholderSignature(width: 100, height: 40, strokes: [[.init(x: 1, y: 1), .init(x: 90, y: 30)]])
        await terminal.setSignatureHandler { _ in .acceptSigned(drawn) }
        let result = try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur))
        #expect(result.status == .approved && result.signature == SignaturePad.sample)
        try await sandbox.close(terminal)
    }

    @Test func aDeclinedSignatureIsNotKept() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        await terminal.setSignatureHandler { _ in .decline }
        let result = try await terminal.sale(PaymentParameters(amount: 30_00, currency: .eur))
        #expect(result.status == .declined && result.signature == nil && !result.signatureStored)
        // The reversed approval has no signature, and the gateway refuses to keep one for it.
        let id = try #require(result.transactionID)
        await #expect(throws: MPOSError.notFound) { try await terminal.receipts.signature(transactionID: id) }
        let pad = try #require(SignaturePad.sample)
        await #expect(throws: MPOSError.gatewayRefused) {
            try await terminal.receipts.storeSignature(pad, transactionID: id)
        }
        try await sandbox.close(terminal)
    }
}
