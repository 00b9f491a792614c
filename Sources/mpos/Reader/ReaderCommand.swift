import ArgumentParser
import Foundation
import MPOSCore
import ReaderLink
import ReaderLinkTCP
import ReaderSimulator
import SandboxCards

/// `mpos reader …`
struct ReaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Run the reader emulator, or talk to a reader.",
        subcommands: [
            ReaderEmulateCommand.self, ReaderPCSCCommand.self, ReaderInfoCommand.self, ReaderUpdateCommand.self, ReaderLogsCommand.self,
            ReaderScanCommand.self,
            ReaderDiscoverCommand.self,
        ]
    )
}

/// `mpos reader emulate [--port N] [--secret HEX] [--card ID] [--battery PERCENT] [--battery-drain POINTS]
/// [--barcode CODE[:SYMBOLOGY] …] [--link-kbps N] [--mtu N] [--link-delay-ms D] [--tip CHOICE]`
struct ReaderEmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "Serve a simulated card reader over TCP on 127.0.0.1.",
        discussion: """
            Prints 'listening on 127.0.0.1:PORT' as its first line and 'discovery on \
            127.0.0.1:UDPPORT' as its second (it answers `mpos reader discover` probes there, \
            docs/reader-protocol.md §9; when that port is taken it says so on standard error and \
            serves without discovery), then serves ReaderLink clients until SIGINT (Ctrl-C) or \
            SIGTERM, one terminal at a time: while one is paired, another is refused with the \
            first one's address. The test cards and scenario amounts are in docs/test-cards.md.
            """
    )

    @OptionGroup var serving: ReaderServingOptions

    @Option(help: "The test card presented to transactions (an id from docs/test-cards.md).")
    var card: String = "visa-credit"

    @Option(help: "How the card is presented: chip, contactless or magstripe.")
    var entry: String = "chip"

    @Option(help: "Milliseconds between a cardholder's steps, so prompts are visible.")
    var delayMs: Int = 0

    @Option(help: "The battery's level in percent, 0-100.")
    var battery: Int = 100

    @Option(
        help: """
            Percentage points each transaction drains. 0, the default, keeps the level, so an emulator \
            that runs for weeks never goes flat; 1 or more plays a draining battery, which warns at 15 % \
            and refuses transactions at 5 %.
            """)
    var batteryDrain: Int = 0

    @Option(
        help: ArgumentHelp(
            "A code the scanner reads while a terminal has it on, one every 200 ms, in the order given "
                + "(repeatable; the symbology after the last colon, EAN-13 when none).",
            valueName: "code[:symbology]"))
    var barcode: [String] = []

    @OptionGroup var link: LinkOptions

    @Option(
        help: ArgumentHelp(
            "What the cardholder presses when a sale offers a tip: none (the default), cancel, an offered "
                + "percentage such as 15%, or an amount in minor units such as 350.",
            valueName: "choice"))
    var tip: String = "none"

    @Option(
        help: ArgumentHelp(
            "What the customer answers to the next question the app asks on the reader's screen, in order "
                + "(repeat it): yes, no, choice:N, text:WORDS, skip or timeout. Unscripted questions get yes, "
                + "the first choice, an example e-mail address or phone number, OK, or a drawn signature.",
            valueName: "answer"))
    var customerAnswer: [String] = []

    @Option(
        help: ArgumentHelp(
            "The reader asks the cardholder for the account after the card is read (EFT_ACCOUNT_TYPE_SELECTION), "
                + "and the cardholder picks this one: default, savings, cheque or credit.",
            valueName: "account"))
    var accountType: String?

    @Flag(help: "The cardholder confirms the amount on the reader before the card prompt (EFT_AMOUNT_VALIDATION).")
    var confirmAmount = false

    @Flag(help: "A card was left in the reader: the first transaction ends with EFT_WAITING_CARD_REMOVAL, the next goes ahead.")
    var cardLeft = false

    @Flag(help: "The reader has no bar-code scanner: scanner requests are refused with EFT_SCANNER_IS_NOT_SUPPORTED.")
    var noScanner = false

    @Flag(
        help: "The cardholder presses OK without a digit at every PIN prompt: the PIN is bypassed and the payment falls back to a signature.")
    var pinBypass = false

    @Option(
        help: ArgumentHelp(
            "A directory that keeps the reader's firmware and configuration slots, and an update in progress, "
                + "across restarts (even kill -9); created if missing.",
            valueName: "DIR"))
    var state: String?

    func run() async throws {
        var configuration = try serving.configuration()
        guard SandboxCards.card(id: card) != nil else {
            throw ValidationError("unknown card '\(card)'; known: \(SandboxCards.all.map(\.id).joined(separator: ", "))")
        }
        guard let entryMode = CardEntryMode(rawValue: entry), [.chip, .contactless, .magstripe].contains(entryMode) else {
            throw ValidationError("--entry must be chip, contactless or magstripe")
        }
        guard (0...100).contains(battery) else { throw ValidationError("--battery must be 0 to 100, not \(battery)") }
        guard (0...100).contains(batteryDrain) else {
            throw ValidationError("--battery-drain must be 0 to 100, not \(batteryDrain)")
        }
        let barcodes = try EmulatedBarcodes(barcode)
        let tipChoice = try TipChoiceArgument.parse(tip)
        configuration.tipChoice = tipChoice
        configuration.customerAnswers = try customerAnswer.map(CustomerAnswerArgument.parse)
        configuration.accountSelection = try accountType.map(AccountTypeArgument.parse)
        configuration.pinEntry = pinBypass ? .bypass : .cardsPIN
        configuration.hasScanner = !noScanner
        configuration.confirmsAmount = confirmAmount
        configuration.cardLeftInReader = cardLeft
        configuration.battery = Battery(percentage: battery, drainPerTransaction: batteryDrain)
        try link.apply(to: &configuration)
        configuration.cardID = card
        configuration.entryMode = entryMode
        configuration.humanDelay = .milliseconds(max(0, delayMs))
        if let state {
            // Checked here so that a directory the reader cannot use stops the emulator with
            // one line instead of serving factory images.
            let blank = FirmwareSlots(firmware: .init(version: "", bytes: []), configuration: .init(version: "", bytes: []))
            do { _ = try FirmwareSlotStore(path: state).load(defaults: blank) } catch {
                throw CLIFailure("cannot use --state: \(error)")
            }
            configuration.stateDirectory = state
        }
        try await serving.serve(SimulatedReader(configuration: configuration), barcodes: barcodes)
    }
}

/// Where a reader process serves ReaderLink and what it announces: the options `mpos reader
/// emulate` and `mpos reader pcsc` share.
struct ReaderServingOptions: ParsableArguments {
    @Option(help: "The TCP port; 0 picks a free one.")
    var port: Int = 0

    @OptionGroup var discovery: DiscoveryOptions

    @Option(help: "The shared secret, 64 hex characters (default: the sandbox reader's published secret).")
    var secret: String = SimulatedReaderConfiguration.sandboxSecretHex

    /// A reader's configuration with the secret, name and serial number given, or fails naming
    /// the option that is malformed.
    func configuration() throws -> SimulatedReaderConfiguration {
        let sharedSecret: SharedSecret
        do { sharedSecret = try SharedSecret(hex: secret) } catch {
            throw ValidationError("the shared secret must be 64 hex characters (32 bytes)")
        }
        var configuration = SimulatedReaderConfiguration(secret: sharedSecret)
        try discovery.apply(to: &configuration)
        return configuration
    }

    /// Serves `reader` on the port, with discovery, until the process is stopped.
    func serve(_ reader: SimulatedReader, barcodes: EmulatedBarcodes) async throws {
        try await ReaderServing(port: port, discoveryPort: discovery.discoveryPort).run(reader, barcodes: barcodes)
    }
}

/// What `mpos reader emulate` announces to discovery, and where it listens for probes.
struct DiscoveryOptions: ParsableArguments {
    @Option(help: "The UDP port that answers discovery probes; 0 picks a free one.")
    var discoveryPort = DiscoveryDatagram.defaultPort

    @Option(help: "The name the reader announces to discovery.")
    var name = "Sandbox reader"

    @Option(help: "The serial number the reader reports.")
    var serial = "MPSIM-000001"

    /// Sets the name and serial number, or fails naming the option that does not fit a
    /// discovery reply (1 to 64 bytes).
    func apply(to configuration: inout SimulatedReaderConfiguration) throws {
        for (option, value) in [("--name", name), ("--serial", serial)]
        where value.isEmpty || value.utf8.count > DiscoveryDatagram.maximumFieldLength {
            throw CLIFailure("\(option) must be 1 to \(DiscoveryDatagram.maximumFieldLength) bytes")
        }
        configuration.name = name
        configuration.serialNumber = serial
    }
}

/// HOST:PORT parsing for `--reader`.
enum ReaderAddress {
    static func parse(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port), colon != text.startIndex
        else { throw ValidationError("--reader must be HOST:PORT, e.g. 127.0.0.1:4000") }
        return (String(text[..<colon]), port)
    }

    /// The one line a command exits with when the reader at `address` is paired with another
    /// terminal (`error` has the code `MPOSError.Code.readerInUse` and names the holder).
    static func inUse(_ address: String, _ error: MPOSError) -> CLIFailure {
        CLIFailure("cannot use the reader at \(address): \(error.message)")
    }
}
