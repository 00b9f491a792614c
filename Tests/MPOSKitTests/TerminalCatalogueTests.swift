import Foundation
import GatewayAPI
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway
import Testing

@testable import MPOSKit

/// The Accept seed's paymentmethods.xml: which reader models the app supports, what the
/// merchant sees them as, and the cards each model must not take.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TerminalCatalogueTests {
    /// docs/examples/paymentmethods.xml, the example an app starts from.
    static func example() throws -> TerminalCatalogue {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try TerminalCatalogue(
            xml: Data(contentsOf: root.appendingPathComponent("docs/examples/paymentmethods.xml")))
    }

    static func refusal(_ xml: String) -> MPOSError? {
        do {
            _ = try TerminalCatalogue(xml: Data(xml.utf8))
            return nil
        } catch { return error }
    }

    @Test func theExampleFileReadsAsItsTerminalsAndBlacklists() throws {
        let catalogue = try Self.example()
        #expect(catalogue.terminals.map(\.model) == ["Simulated Reader R1", "Simulated Reader R2"])
        let counter = try #require(catalogue.terminal(model: "Simulated Reader R1"))
        #expect(counter.name == "Counter reader")
        #expect(counter.blacklist == [.scheme("amex"), .bin("601111")])
        #expect(catalogue.terminal(model: "Simulated Reader R2")?.blacklist == [.aid("A000000333010101")])
        #expect(catalogue.terminal(model: "Unknown") == nil)
    }

    @Test func aMalformedCatalogueIsRefusedWithItsLine() {
        let cases: [(String, String)] = [
            ("<paymentmethods><terminal model=\"A\" name=\"a\">", "not well-formed"),
            ("<terminals/>", "not expected as the root"),
            ("<paymentmethods>\n<terminal name=\"a\"/></paymentmethods>", "Line 2: a <terminal> needs a model"),
            ("<paymentmethods><terminal model=\"A\"/></paymentmethods>", "needs a name"),
            (
                "<paymentmethods><terminal model=\"A\" name=\"a\"/><terminal model=\"A\" name=\"b\"/></paymentmethods>",
                "listed twice"
            ),
            (
                "<paymentmethods><terminal model=\"A\" name=\"a\"><blacklist><card bin=\"4x\"/></blacklist></terminal></paymentmethods>",
                "one scheme, bin"
            ),
            (
                "<paymentmethods><terminal model=\"A\" name=\"a\"><blacklist><card aid=\"A0\" scheme=\"visa\"/></blacklist></terminal></paymentmethods>",
                "one scheme, bin"
            ),
            ("<paymentmethods><reader/></paymentmethods>", "<reader> is not expected inside <paymentmethods>"),
            ("", "not well-formed"),
        ]
        for (xml, message) in cases {
            let error = Self.refusal(xml)
            #expect(error?.code == MPOSError.Code.invalidCatalogue, "\(xml)")
            #expect(error?.message.contains(message) == true, "\(xml): \(error?.message ?? "accepted")")
        }
        let huge = "<paymentmethods>" + String(repeating: " ", count: 300 * 1024) + "</paymentmethods>"
        #expect(Self.refusal(huge)?.message.contains("256 KiB") == true)
    }

    @Test func aBlacklistedSchemeIsDeclinedBeforeTheGatewayAndOthersPay() async throws {
        let sandbox = try await Sandbox { $0.cardID = "amex" }
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.reader.setCatalogue(try Self.example())
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port),
            secret: Sandbox.secret)
        let refused = try await terminal.sale(PaymentParameters(amount: 15_00, currency: .eur))
        #expect(refused.status == .declined)
        #expect(refused.error?.code == MPOSError.Code.cardNotAccepted)
        #expect(refused.error?.message.contains("amex cards") == true)
        #expect(refused.transactionID == nil && refused.approvedAmount == 0)
        // Nothing reached the gateway, and the journal holds the attempt as finished.
        let ledger = ReportingService(database: sandbox.gateway.environment.store.database)
        #expect(try await ledger.search(merchant: sandbox.credentials.merchantID, TransactionSearch()).total == 0)
        #expect(try PaymentJournal(path: sandbox.journalPath).unfinished().isEmpty)

        try await sandbox.reader.present(cardID: "visa-credit")
        #expect(try await terminal.sale(PaymentParameters(amount: 15_00, currency: .eur)).status == .approved)
        try await sandbox.close(terminal)
    }

    @Test func aBlacklistedBinIsDeclined() async throws {
        let sandbox = try await Sandbox { $0.cardID = "discover" }
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.reader.setCatalogue(try Self.example())
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port),
            secret: Sandbox.secret)
        let refused = try await terminal.sale(PaymentParameters(amount: 4_00, currency: .eur))
        #expect(refused.status == .declined && refused.error == .cardNotAccepted)
        #expect(refused.error?.message.contains("starting 601111") == true)
        try await sandbox.close(terminal)
    }

    /// A reader whose description is lost (the link drops instead of its answer) cannot be
    /// judged by the catalogue, so it is not admitted; before, the check was skipped and the
    /// reader connected whatever its model.
    @Test func aReaderThatDoesNotDescribeItselfIsNotAdmittedUnderACatalogue() async throws {
        // The reader's first message after pairing is its device info: the link drops instead.
        let sandbox = try await Sandbox { $0.faults = FaultPlan([.dropLink(atMessage: Self.deviceInfoAnswer)]) }
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.reader.setCatalogue(try Self.example())
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        await #expect(throws: MPOSError.readerNotSupported) {
            try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
        }
        #expect(await terminal.reader.connectionState == .notConnected)
        try await sandbox.close(terminal)
    }

    /// The number of the reader's message that answers the SDK's first device-info request:
    /// its first two messages are pairing's (dropping either fails the pairing instead).
    static let deviceInfoAnswer = 3

    @Test func aModelOutsideTheCatalogueIsNotConnected() async throws {
        let sandbox = try await Sandbox { $0.model = "Other Reader X9" }
        let terminal = try await sandbox.terminal(connect: false)
        await terminal.reader.setCatalogue(try Self.example())
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port)
        do {
            try await terminal.reader.connect(transport: link, secret: Sandbox.secret)
            Issue.record("connected a model the catalogue does not list")
        } catch {
            #expect(error.code == MPOSError.Code.readerNotSupported)
            #expect(error.message.contains("Other Reader X9"))
        }
        #expect(await terminal.reader.connectionState == .notConnected)
        // Without a catalogue every model is taken.
        await terminal.reader.setCatalogue(nil)
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: sandbox.server.port),
            secret: Sandbox.secret)
        #expect(try await terminal.reader.info().model == "Other Reader X9")
        try await sandbox.close(terminal)
    }

    @Test func discoveryListsSupportedModelsUnderTheCataloguesNames() async throws {
        let sandbox = try await Sandbox()
        let clock = ManualClock()
        let terminal = try await sandbox.terminal(clock: clock, connect: false)
        var other = SimulatedReaderConfiguration(secret: Sandbox.secret)
        other.model = "Other Reader X9"
        other.serialNumber = "MPSIM-000099"
        let stranger = SimulatedReader(configuration: other)
        await terminal.reader.setCatalogue(try Self.example())
        let scan = Task {
            await terminal.reader.discover(scanners: [SimulatedReaderScanner(readers: [sandbox.reader, stranger])])
        }
        await clock.waitForSleeper(until: .seconds(5))
        clock.advance(by: .seconds(5))
        let readers = await scan.value
        #expect(readers.map(\.serialNumber) == ["MPSIM-000001"])
        #expect(readers.first?.name == "Counter reader")

        // The Heft seed's discoverAllDevices: every reader that answered, told apart by isSupported.
        let everyScan = Task {
            await terminal.reader.discover(
                scanners: [SimulatedReaderScanner(readers: [sandbox.reader, stranger])], allDevices: true)
        }
        await clock.waitForSleeper(until: .seconds(10))
        clock.advance(by: .seconds(5))
        let every = await everyScan.value
        #expect(Set(every.map(\.serialNumber)) == ["MPSIM-000001", "MPSIM-000099"])
        var supported: [String] = []
        for reader in every where await terminal.reader.isSupported(reader) { supported.append(reader.serialNumber) }
        #expect(supported == ["MPSIM-000001"])
        #expect(every.first { $0.serialNumber == "MPSIM-000099" }?.name == other.name)
        // The Heft seed's devicesCopy and resetDevices: what the scans found, kept until reset.
        #expect(Set(await terminal.reader.discoveredReaders.map(\.serialNumber)) == ["MPSIM-000001", "MPSIM-000099"])
        await terminal.reader.resetDiscoveredReaders()
        #expect(await terminal.reader.discoveredReaders.isEmpty)
        try await sandbox.close(terminal)
    }
}
