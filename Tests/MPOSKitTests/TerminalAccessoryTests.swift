import Foundation
import MPOSCore
import PrinterSimulator
import ReaderLink
import Testing

@testable import MPOSKit

/// The cash drawer opened by cash payments (the Accept seed's rule, off by default) and
/// accessory scanners delivered through the reader scanner's API.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TerminalAccessoryTests {
    static func cash(_ amount: Int64) -> PaymentParameters {
        PaymentParameters(amount: amount, currency: .eur)
    }

    @Test func aCashPaymentOpensTheDrawerOnlyOnceTheTerminalIsToldTo() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let link = InProcessPrinter()
        let printer = ReceiptPrinter { link.connection() }
        let events = terminal.events.subscribe([.accessory])
        var drawerEvents = events.makeAsyncIterator()

        // Off by default: a cash payment sends nothing to the printer.
        let first = try await terminal.recordCash(Self.cash(5_00))
        #expect(first.status == .approved && link.received == 0)

        await terminal.accessories.setCashDrawer(printer, pin: .pin5)
        let second = try await terminal.recordCash(Self.cash(7_00))
        #expect(second.status == .approved)
        #expect(await drawerEvents.next() == .cashDrawer(opened: true, problem: nil))
        #expect(link.log.contains { $0.hasPrefix("drawer kick on pin 5 ") })

        // A drawer that cannot open leaves the payment approved and says why.
        link.state.withLock { $0.emulator.state.coverOpen = true }
        let third = try await terminal.recordCash(Self.cash(3_00))
        #expect(third.status == .approved)
        #expect(await drawerEvents.next() == .cashDrawer(opened: false, problem: .printerCoverOpen))
        try await sandbox.close(terminal)
    }

    /// A StarIO-like accessory: the app feeds its scans into the stream.
    struct AccessoryScanner: BarcodeScannerAccessory {
        let scans: AsyncStream<ScanEvent>
    }

    @Test func anAccessoryScannersCodesArriveLikeTheReaderScanners() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        let (scans, feed) = AsyncStream.makeStream(of: ScanEvent.self)
        var received = terminal.reader.scans().makeAsyncIterator()
        var events = terminal.events.subscribe([.scanner]).makeAsyncIterator()
        await terminal.accessories.attachScanner(AccessoryScanner(scans: scans))
        let code = ScanEvent(barcode: "4006381333931", symbology: "EAN-13")
        feed.yield(code)
        #expect(try await received.next() == code)
        #expect(await events.next() == .scan(code))
        await terminal.accessories.detachScanners()
        feed.finish()
        try await sandbox.close(terminal)
    }
}
