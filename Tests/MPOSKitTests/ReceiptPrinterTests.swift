import Foundation
import MPOSCore
import MPOSTestSupport
import PrinterSimulator
import Testing

@testable import MPOSKit

/// `ReceiptPrinter` against the printer emulator in process: status around the job, progress,
/// the condition's error, where a job stopped, the timeout on the clock, the drawer.
@Suite(.timeLimit(.minutes(2))) struct ReceiptPrinterTests {
    static let receipt = ReceiptRenderingTests.contactPIN()

    static func printer(
        _ link: InProcessPrinter, profile: PrinterProfile = .paper80mm, chunkSize: Int = 1_024
    ) -> ReceiptPrinter {
        ReceiptPrinter(profile: profile, chunkSize: chunkSize) { link.connection() }
    }

    @Test func aReadyPrinterPrintsTheWholeJobWithStatusAroundIt() async throws {
        let link = InProcessPrinter(PrinterEmulator(model: .paper80mm))
        let job = Self.receipt.escPosJob(.customer, profile: .paper80mm)
        let count = job.bytes.count
        let operation = Self.printer(link, chunkSize: 256).print(Self.receipt, copy: .customer)
        var steps: [PrintProgress] = []
        for await step in operation.progress { steps.append(step) }
        let report = try await operation.result().get()
        #expect(report.bytesSent == count && report.bytesTotal == count && report.status?.isReady == true)
        #expect(
            steps.prefix(3) == [.connecting, .checkingStatus, .printing(bytesSent: 0, bytesTotal: count)])
        #expect(steps.suffix(3) == [.printing(bytesSent: count, bytesTotal: count), .confirming, .finished])
        // Pieces of at most 256 bytes (the QR code's store command is one), each ending
        // between two commands.
        let sent = steps.compactMap { if case .printing(let sent, _) = $0 { sent } else { nil } }
        #expect(sent.count > count / 256)
        for (previous, next) in zip(sent, sent.dropFirst()) {
            #expect(next > previous && next - previous <= 256)
            #expect(job.commandEnds.contains(next))
        }
        let printed = try #require(link.jobs.first)
        #expect(printed.lines == Self.receipt.text(.customer, width: 48).components(separatedBy: "\n"))
        #expect(printed.cut)
    }

    @Test func twoJobsAtOnceTakeTurnsAndPrintWhole() async throws {
        let link = InProcessPrinter(PrinterEmulator(model: .paper80mm))
        let printer = Self.printer(link, chunkSize: 128)
        let customer = printer.print(Self.receipt, copy: .customer)
        let merchant = printer.print(Self.receipt, copy: .merchant)
        try await customer.result().get()
        try await merchant.result().get()
        let printed = Set(link.jobs.map(\.lines))
        let expected = Set(
            ReceiptCopy.allCases.map { Self.receipt.text($0, width: 48).components(separatedBy: "\n") })
        #expect(link.jobs.count == 2 && printed == expected)
    }

    @Test func statusRequestsNeverSplitACommand() {
        // A 300-byte QR store command with 100-byte pieces goes out whole.
        var job = EscPosEncoder(profile: .paper58mm)
        job.line("AB")
        try? job.qrCode(Array(repeating: 0x41, count: 300))
        job.cut()
        let store = job.commandEnds[5]
        let pieces = ReceiptPrinter.pieces(of: job.bytes.count, commandEnds: job.commandEnds, size: 100)
        #expect(pieces.allSatisfy { job.commandEnds.contains($0) })
        #expect(pieces.contains(store) && pieces.last == job.bytes.count)
        #expect(!pieces.contains { $0 > store - 300 && $0 < store })
    }

    @Test(arguments: [
        (PrinterState(coverOpen: true), MPOSError.printerCoverOpen, "cover open"),
        (PrinterState(paperOut: true), MPOSError.printerPaperOut, "paper out"),
        (PrinterState(paperOut: true, coverOpen: true), MPOSError.printerCoverOpen, "cover open, paper out"),
    ])
    func aPrinterThatCannotPrintGetsNothingAndTheErrorNamesTheCondition(
        state: PrinterState, expected: MPOSError, words: String
    ) async throws {
        let link = InProcessPrinter(PrinterEmulator(state: state))
        let report = await Self.printer(link).print(Self.receipt, copy: .customer).result()
        #expect(report.error == expected)
        #expect(report.error?.message.contains(words) == true, "\(report.error?.message ?? "")")
        #expect(report.bytesSent == 0 && !report.printed)
        // Only the status requests (DLE EOT 1, 2 and 4; 3 only after an error) reached it.
        #expect(link.received == 3 * 3)
        #expect(throws: expected) { try report.get() }
    }

    @Test func paperRunningOutMidJobReportsWhereTheJobStopped() async throws {
        let link = InProcessPrinter()
        // Received bytes count the status requests too; the mark falls inside the job.
        link.change(after: 300) { $0.paperOut = true }
        let operation = Self.printer(link, chunkSize: 64).print(Self.receipt, copy: .customer)
        var steps: [PrintProgress] = []
        for await step in operation.progress { steps.append(step) }
        let report = await operation.result()
        #expect(report.error == .printerPaperOut)
        #expect(report.status?.paperOut == true)
        // The piece that crossed the mark met a printer out of paper: what went before printed.
        let lastConfirmed = steps.compactMap { if case .printing(let sent, _) = $0 { sent } else { nil } }
            .last
        #expect(report.bytesSent == lastConfirmed && report.bytesSent > 150 && report.bytesSent < 300)
        #expect(
            report.error?.message.contains("Stopped after \(report.bytesSent) of \(report.bytesTotal) bytes")
                == true)
        #expect(steps.last == .failed(.printerPaperOut))
        #expect(link.jobs.first?.stop?.reason == "paper out")
        #expect(link.jobs.first?.stop?.linesPrinted ?? 0 > 0)
    }

    @Test func aPrinterThatDoesNotAnswerTimesOutOnTheClock() async throws {
        let clock = ManualClock()
        let silent = SilentPrinterLink()
        let operation = ReceiptPrinter(clock: clock) { silent }.print([0x1B, 0x40])
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        let report = await operation.result()
        #expect(report.error == .printerNotResponding)
        #expect(report.bytesSent == 0 && report.error?.message.contains("DLE EOT 1") == true)
    }

    @Test func aFileGetsTheJobWithoutStatusRequests() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "job-\(UUID().uuidString).bin"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let job = Self.receipt.escPos(.merchant, profile: .paper58mm)
        let printer = ReceiptPrinter(profile: .paper58mm) { try FilePrinterConnection(path: path) }
        let report = try await printer.print(job).result().get()
        #expect(report.bytesSent == job.count && report.status == nil)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == job)
    }

    @Test func aPrinterThatCannotBeReachedSaysSo() async throws {
        struct Refused: Error {}
        let printer = ReceiptPrinter { throw Refused() }
        let report = await printer.print([0x1B, 0x40]).result()
        #expect(report.error == .printerUnreachable && report.status == nil)
    }

    @Test(arguments: [EscPosEncoder.DrawerPin.pin2, .pin5])
    func theDrawerOpensOnItsPinAndItsSensorIsRead(pin: EscPosEncoder.DrawerPin) async throws {
        let link = InProcessPrinter()
        let printer = Self.printer(link)
        #expect(try await printer.drawerIsOpen() == false)
        let status = try await printer.openCashDrawer(pin: pin)
        #expect(status.drawerOpen)
        #expect(link.log.contains { $0.hasPrefix("drawer kick on pin \(pin == .pin2 ? 2 : 5) ") })
        #expect(try await printer.drawerIsOpen())
    }

    @Test func theDrawerDoesNotOpenWhileTheCoverIsOpen() async throws {
        let link = InProcessPrinter(PrinterEmulator(state: PrinterState(coverOpen: true)))
        await #expect(throws: MPOSError.printerCoverOpen) { try await Self.printer(link).openCashDrawer() }
        #expect(!link.log.contains { $0.hasPrefix("drawer kick") })
    }
}

/// A printer link on which nothing ever answers.
final class SilentPrinterLink: PrinterConnection {
    let incoming: AsyncStream<[UInt8]>
    private let sink: AsyncStream<[UInt8]>.Continuation
    var answersStatus: Bool { true }

    init() { (incoming, sink) = AsyncStream.makeStream(of: [UInt8].self) }
    func send(_ bytes: [UInt8]) async throws(MPOSError) {}
    func close() async { sink.finish() }
}

/// The Accept seed's `discoverSupportedPrinterVendors` and `discoverPrintersForVendor:`.
@Suite(.timeLimit(.minutes(1)))
struct PrinterCatalogueTests {
    @Test func theSupportedVendorsListTheirPrintersEachOnce() throws {
        let catalogue = PrinterCatalogue.supported
        #expect(catalogue.vendors.map(\.id) == ["escpos", "epson", "star-micronics", "datecs", "airprint"])
        let models = catalogue.vendors.flatMap(\.printers)
        #expect(Set(models.map(\.id)).count == models.count)
        let star = try catalogue.printers(forVendor: "star-micronics")
        #expect(star.map(\.name) == ["mPOP (LAN)"] && star[0].opensCashDrawer && star[0].readsBarcodes)
        #expect(star[0].port == ReceiptPrinter.defaultPort)
        let datecs = try #require(catalogue.printer(id: "datecs-dpp-250"))
        #expect(datecs.connection == .bluetoothAccessory && datecs.port == nil && datecs.profile == .datecsDPP250)
        // Every ESC/POS model names its profile; AirPrint lays out a page instead.
        #expect(models.allSatisfy { ($0.profile == nil) == ($0.connection == .airPrint) })
    }

    @Test func anUnknownVendorIsAnInvalidArgumentNamingTheVendors() {
        let error = #expect(throws: MPOSError.self) { try PrinterCatalogue.supported.printers(forVendor: "zebra") }
        #expect(error?.code == MPOSError.Code.invalidArgument && error?.message.contains("star-micronics") == true)
    }

    @Test func aModelFromTheCataloguePrintsWithItsProfile() async throws {
        let model = try #require(PrinterCatalogue.supported.printer(id: "star-mpop"))
        let profile = try #require(model.profile)
        let link = InProcessPrinter(PrinterEmulator(model: .paper58mm))
        let report = try await ReceiptPrinterTests.printer(link, profile: profile)
            .print(ReceiptPrinterTests.receipt, copy: .customer).result().get()
        #expect(report.status?.isReady == true)
        let printed = try #require(link.jobs.first)
        #expect(printed.lines == ReceiptPrinterTests.receipt.text(.customer, width: profile.columns).components(separatedBy: "\n"))
    }
}
