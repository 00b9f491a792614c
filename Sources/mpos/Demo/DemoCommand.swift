import ArgumentParser
import Foundation
import GatewayAPI
import MPOSCore
import MPOSKit
import MPOSKitNIO
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxGateway

/// `mpos demo`: a whole payment on this machine, with nothing to set up.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a sale, a refund and the reports against an embedded sandbox.",
        discussion: """
            Starts the sandbox gateway on a temporary database and a simulated reader on \
            127.0.0.1 (both on free ports), logs in with the sandbox credentials, connects over \
            TCP, sells 12.34 EUR printing the reader's prompts, prints the customer receipt, \
            refunds the sale, shows a search and the statistics, and shuts everything down. With \
            --keep-serving it then prints a one-time link to the sandbox's dashboard and serves \
            until Ctrl-C.
            """
    )

    @Option(help: "The test card (an id from docs/test-cards.md).")
    var card: String = "visa-credit"

    @Option(help: "Milliseconds between the cardholder's steps, so prompts show.")
    var delayMs: Int = 150

    @Flag(
        help: "After the demo, keep its sandbox up and print a one-time link to its dashboard; Ctrl-C ends it.")
    var keepServing = false

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }

        let gateway = try await SandboxGateway.start(SandboxGatewayConfiguration(
            port: 0, databasePath: directory.appendingPathComponent("gateway.sqlite").path, passwordHashRounds: 10_000,
            logLevel: .critical))
        guard let credentials = gateway.credentials else { throw CLIFailure("the sandbox created no credentials") }
        CLIOutput.line("gateway   \(gateway.baseURL.absoluteString)")

        let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
        var configuration = SimulatedReaderConfiguration(secret: secret)
        configuration.cardID = card
        configuration.humanDelay = .milliseconds(max(0, delayMs))
        let reader = SimulatedReader(configuration: configuration)
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        // Unstructured: the embedded reader serves while the demo runs; cancelled at its end.
        let serving = Task { await serveEach(connections, with: reader) }
        CLIOutput.line("reader    127.0.0.1:\(server.port)")

        let terminal = try PaymentTerminal(
            environment: gateway.baseURL, credentials: .login(user: credentials.user, password: credentials.password),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: NIOGatewayTransport())
        // Printed as they happen: the terminal calls the handler before the sale goes on.
        terminal.events.addHandler { event in
            if let line = Self.describe(event) { CLIOutput.line("  · \(line)") }
        }
        await terminal.setSignatureHandler { _ in
            CLIOutput.line("  · signature checked by the merchant: accepted")
            return .accept
        }

        do {
            try await terminal.login()
            CLIOutput.line("logged in as \(credentials.user)")
            let link = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
            try await terminal.reader.connect(transport: link, secret: secret)

            CLIOutput.line("\nSALE 12.34 EUR")
            // A café order: its lines and their tax print on the receipt.
            let order = Basket(items: [
                BasketItem(name: "Cappuccino", quantity: 2, unitPrice: 3_90, taxBasisPoints: 700),
                BasketItem(name: "Cheesecake", quantity: 1, unitPrice: 4_54, taxBasisPoints: 1_900),
            ])
            let sale = try await terminal.sale(PaymentParameters(
                amount: 12_34, currency: .eur, statementDescriptor: "MPOS Demo", statementDescriptorSuffix: "Table 4",
                basket: order))
            CLIOutput.line("result    \(sale.status.rawValue.uppercased())" + (sale.transactionID.map { "  \($0.rawValue)" } ?? ""))
            CLIOutput.line("\n" + sale.customerReceipt + "\n")

            if let id = sale.transactionID, sale.status == .approved {
                CLIOutput.line("REFUND 12.34 EUR")
                let refund = try await terminal.refund(transactionID: id)
                CLIOutput.line("result    \(refund.status.rawValue.uppercased())" + (refund.transactionID.map { "  \($0.rawValue)" } ?? ""))
            }

            CLIOutput.line("\nSEARCH")
            do {
                let page = try await terminal.reports.searchTransactions()
                for item in page.items {
                    CLIOutput.line(
                        "  \(item.id.rawValue)  \(item.kind.rawValue)  \(item.status.rawValue)  "
                            + Receipt.format(item.totalAmount, item.currency) + "  " + (item.card?.maskedPAN ?? ""))
                }
            } catch { CLIOutput.line("  unavailable: \(error)") }

            CLIOutput.line("\nSTATISTICS (today)")
            do {
                let now = Date()
                let stats = try await terminal.reports.statistics(StatisticsRequest(
                    from: now.addingTimeInterval(-86_400), to: now.addingTimeInterval(86_400), grouping: .day))
                for bucket in stats.buckets {
                    CLIOutput.line("  \(bucket.label)  count \(bucket.count)  turnover " + Receipt.format(bucket.turnover, stats.currency))
                }
            } catch { CLIOutput.line("  unavailable: \(error)") }
        } catch {
            await terminal.disconnect()
            await server.close()
            serving.cancel()
            await gateway.shutdown()
            throw CLIFailure("demo failed: \(error)")
        }

        await terminal.disconnect()
        await server.close()
        serving.cancel()
        if keepServing {
            // Caught before the link is printed, so a signal sent as soon as it shows is not lost.
            let signals = TerminationSignals()
            do {
                let link = try await DashboardCommand.loginLink(
                    base: gateway.baseURL, user: credentials.user, password: credentials.password)
                CLIOutput.line("\nsee it in your browser: \(link)")
                CLIOutput.line("(a one-time link for 5 minutes; the sandbox serves until Ctrl-C)")
                _ = await signals.wait()
            } catch {
                await gateway.shutdown()
                throw CLIFailure("the dashboard link could not be made: \(error)")
            }
        } else {
            CLIOutput.line("\nsee it in your browser: mpos demo --keep-serving keeps the sandbox up and prints a link")
        }
        await gateway.shutdown()
        CLIOutput.line("\ndone")
    }

    /// One line per event worth showing; nil for the rest.
    static func describe(_ event: TerminalEvent) -> String? {
        switch event {
        case .readerConnection(let connected, let info):
            connected ? "reader connected: \(info.map { "\($0.model) \($0.serialNumber)" } ?? "")" : "reader disconnected"
        case .readerConnecting(let attempt): attempt == 0 ? "connecting to the reader" : "reconnecting to the reader (attempt \(attempt))"
        case .readerStatus(_, let message, _): "reader: \(message)"
        case .card(let event): "card \(event)"
        case .pinEntry(let digits): "PIN " + String(repeating: "*", count: digits)
        case .applicationSelection(let candidates): "choose application: \(candidates.map(\.label).joined(separator: ", "))"
        case .signatureRequired: "signature required"
        case .authorizing: "authorizing with the gateway"
        case .recovering: "gateway answer lost: looking the payment up"
        case .reversing: "reversing"
        case .completed(let status): "completed: \(status.rawValue)"
        case .readerDiscovered(let reader): "found reader \(reader.name) (\(reader.serialNumber))"
        case .discoveryFinished(let count): "scan finished: \(count) reader(s)"
        case .batteryLow(let battery): "reader battery low: \(battery.percentage)%"
        case .journalWriteFailed(let error): "the journal could not record the outcome: \(error.message)"
        case .scan(let scan): "scanned \(scan.symbology) \(scan.barcode)"
        case .scannerDisabled: "scanner off"
        case .readerUpdate(.started(let image)): "reader update started: \(image.kind.rawValue) \(image.version)"
        case .readerUpdate(.progress(_, let percent)): "reader update: \(Int(percent)) %"
        case .readerUpdate(.finished(let image, let succeeded)):
            "reader update \(succeeded ? "installed" : "failed"): \(image.kind.rawValue) \(image.version)"
        case .cashDrawer(let opened, let problem): opened ? "cash drawer opened" : "cash drawer: \(problem?.message ?? "not opened")"
        case .offlineForwarded(let outcome):
            "offline sale forwarded: \(outcome.approved ? "approved" : "declined after the fact")"
        case .offlineDataTampering(let slots): "OFFLINE_DATA_TAMPERING in \(slots.count) stored record(s)"
        case .terminalNotification(let event, let details): "terminal: \(event)\(details.map { " (\($0))" } ?? "")"
        }
    }
}
