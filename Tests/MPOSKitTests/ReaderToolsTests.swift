import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderSimulator
import SandboxCards
import Testing

@testable import MPOSKit

/// The reader's log and barcode scanner through `PaymentTerminal`, against the simulated reader
/// over a real socket.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ReaderToolsTests {
    @Test func logsFollowTheLevelAndAnEmptyLogIsTheNoDataStatus() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()

        try await terminal.reader.resetLogs()
        let empty = try await terminal.reader.logs()
        #expect(empty.lines.isEmpty)
        #expect(empty.status == .noDataAvailable)

        // At `.info` the start is logged but not the outcome's detail; at `.full` both.
        try await terminal.reader.setLogLevel(.info)
        let first = try await terminal.sale(PaymentParameters(amount: 12_00, currency: .eur))
        let atInfo = try await terminal.reader.logs()
        #expect(atInfo.status == .success)
        #expect(atInfo.lines.count == 1, "\(atInfo.lines)")
        #expect(atInfo.lines.first?.hasSuffix(": sale 1200 EUR") == true)

        try await terminal.reader.setLogLevel(.full)
        _ = try await terminal.sale(PaymentParameters(amount: 13_00, currency: .eur))
        let atFull = try await terminal.reader.logs().lines
        #expect(atFull.count == 3, "\(atFull)")
        #expect(atFull.last?.hasSuffix(": EFT_SUCCESS (0x0001), tc, chip, CVM pin") == true, "\(atFull)")

        // Nothing at `.none`; a reset empties the log again.
        try await terminal.reader.setLogLevel(.none)
        _ = try await terminal.sale(PaymentParameters(amount: 14_00, currency: .eur))
        #expect(try await terminal.reader.logs().lines.count == 3)
        try await terminal.reader.resetLogs()
        #expect(try await terminal.reader.logs().status == .noDataAvailable)

        // No card number in any line.
        #expect(first.status == .approved)
        let text = atFull.joined(separator: "\n")
        #expect(SandboxCards.all.allSatisfy { !text.contains($0.pan.unmaskedDigits) })
        await terminal.disconnect()
    }

    /// The Heft seed's EFT_SCANNER_IS_NOT_SUPPORTED: a reader without a scanner says so, as a
    /// typed refusal naming the status, and the link stays usable.
    @Test func aReaderWithoutAScannerSaysSo() async throws {
        let sandbox = try await Sandbox { $0.hasScanner = false }
        let terminal = try await sandbox.terminal()
        do {
            try await terminal.reader.enableScanner()
            Issue.record("a reader without a scanner took the scanner request")
        } catch {
            #expect(error.code == MPOSError.Code.readerRefused)
            #expect(error.message.contains(ReaderStatusCode.scannerIsNotSupported.description), "\(error.message)")
        }
        #expect(try await terminal.sale(PaymentParameters(amount: 12_40, currency: .eur)).status == .approved)
        await terminal.disconnect()
    }

    @Test func singleScanDeliversOneCodeAsAStreamAndAsAnEvent() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let events = terminal.events.subscribe([.scanner])
        let scans = terminal.reader.scans()

        // Disabled: a code in front of the scanner is not read.
        await sandbox.reader.scan("0000000000000")
        try await terminal.reader.enableScanner(multiScan: false)
        await sandbox.reader.scan("4006381333931")
        await sandbox.reader.scan("5901234123457")  // single mode is off again after one code

        var eventIterator = events.makeAsyncIterator()
        #expect(await eventIterator.next() == .scan(ScanEvent(barcode: "4006381333931", symbology: "EAN-13")))

        // Multi mode reads until disabled.
        try await terminal.reader.enableScanner(multiScan: true, buttonMode: false, timeoutSeconds: 30)
        await sandbox.reader.scan("A-1", symbology: "Code 128")
        await sandbox.reader.scan("A-2", symbology: "Code 128")
        try await terminal.reader.disableScanner()
        await sandbox.reader.scan("A-3", symbology: "Code 128")
        try await terminal.reader.enableScanner(multiScan: false)
        await sandbox.reader.scan("END", symbology: "QR")
        var read: [ScanEvent] = []
        for await scan in scans {
            read.append(scan)
            if scan.barcode == "END" { break }
        }
        #expect(read.map(\.barcode) == ["4006381333931", "A-1", "A-2", "END"])
        #expect(read.map(\.symbology) == ["EAN-13", "Code 128", "Code 128", "QR"])
        await terminal.disconnect()
    }

    /// The Heft seed's `buttonMode` (on by default): the scanner reads only while the operator
    /// presses its button; without it, whatever is put in front of it.
    @Test func inButtonModeTheScannerReadsOnlyWhileItsButtonIsPressed() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let scans = terminal.reader.scans()
        try await terminal.reader.enableScanner(multiScan: true)
        #expect(await !sandbox.reader.scan("NOT-PRESSED", symbology: "QR", pressingButton: false))
        #expect(await sandbox.reader.scan("PRESSED", symbology: "QR"))
        await sandbox.reader.pressScanButton()
        #expect(await sandbox.reader.scan("HELD", symbology: "QR", pressingButton: false))
        await sandbox.reader.releaseScanButton()
        #expect(await !sandbox.reader.scan("LET-GO", symbology: "QR", pressingButton: false))
        try await terminal.reader.enableScanner(multiScan: false, buttonMode: false)
        #expect(await sandbox.reader.scan("END", symbology: "QR", pressingButton: false))
        var read: [String] = []
        for await scan in scans {
            read.append(scan.barcode)
            if scan.barcode == "END" { break }
        }
        #expect(read == ["PRESSED", "HELD", "END"])
        await terminal.disconnect()
    }

    @Test func theScannerTimesOutAfterItsInactivityTimeoutAndSaysSo() async throws {
        let clock = ManualClock()
        let sandbox = try await Sandbox(readerClock: clock)
        let terminal = try await sandbox.terminal()
        let events = terminal.events.subscribe([.scanner])
        var iterator = events.makeAsyncIterator()

        try await terminal.reader.enableScanner(multiScan: true, timeoutSeconds: 10)
        await clock.waitForSleeper(until: .seconds(10))
        await sandbox.reader.scan("A-1")
        #expect(await iterator.next() == .scan(ScanEvent(barcode: "A-1", symbology: "EAN-13")))
        // Ten seconds after the enable a code had come: the scanner stays on for ten more.
        clock.advance(by: .seconds(10))
        await clock.waitForSleeper(until: .seconds(20))
        #expect(await sandbox.reader.scan("A-2"))
        #expect(await iterator.next() == .scan(ScanEvent(barcode: "A-2", symbology: "EAN-13")))
        clock.advance(by: .seconds(10))
        await clock.waitForSleeper(until: .seconds(30))
        clock.advance(by: .seconds(10))
        #expect(await iterator.next() == .scannerDisabled)
        #expect(await !sandbox.reader.scan("A-3"))  // off: not read

        // A single scan turns it off after its code; a disable says so too.
        try await terminal.reader.enableScanner(multiScan: false)
        await sandbox.reader.scan("B-1")
        #expect(await iterator.next() == .scan(ScanEvent(barcode: "B-1", symbology: "EAN-13")))
        #expect(await iterator.next() == .scannerDisabled)
        try await terminal.reader.enableScanner()
        try await terminal.reader.disableScanner()
        #expect(await iterator.next() == .scannerDisabled)
        await terminal.disconnect()
    }

    @Test func deviceInfoHasEveryKeyOfTheSeedsMPEDInfo() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let info = try await terminal.reader.info().mpedInfo
        #expect(Set(info.keys) == Set(MPEDInfoKey.allCases))
        #expect(info[.serialNumber] == "MPSIM-000001")
        #expect(info[.generalParameters] == "GP-2026.11")
        #expect(info[.emvParameterVersion] == "EMV-2026.11")
        #expect(info[.modelCode] == "Simulated Reader R1")
        #expect(
            info[.xmlDetails]
                == "<MPEDInfo><kSerialNumberInfoKey>MPSIM-000001</kSerialNumberInfoKey>"
                + "<kPublicKeyVersionInfoKey>CAPK-2026.11</kPublicKeyVersionInfoKey>"
                + "<kEMVParamVersionInfoKey>EMV-2026.11</kEMVParamVersionInfoKey>"
                + "<kGeneralParamInfoKey>GP-2026.11</kGeneralParamInfoKey>"
                + "<kManufacturerCodeInfoKey>MPOSKit</kManufacturerCodeInfoKey>"
                + "<kModelCodeInfoKey>Simulated Reader R1</kModelCodeInfoKey>"
                + "<kAppNameInfoKey>mpos-sim</kAppNameInfoKey><kAppVersionInfoKey>1.0.0</kAppVersionInfoKey></MPEDInfo>")
        await terminal.disconnect()
    }

    @Test func toolsWithoutAReaderSayNoReaderIsConnected() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal(connect: false)
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.logs() }
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.enableScanner() }
        await #expect(throws: MPOSError.readerNotConnected) { try await terminal.reader.setLogLevel(.debug) }
    }
}
