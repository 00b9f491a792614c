import ArgumentParser
import Foundation
import PCSCReader
import ReaderLink
import ReaderSimulator

/// `mpos reader pcsc [--port N] [--reader NAME] [--pin PIN] [--secret HEX]`
struct ReaderPCSCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pcsc",
        abstract: "Serve the card in a PC/SC smart-card reader as a card reader over TCP on 127.0.0.1.",
        discussion: """
            Serves ReaderLink exactly as 'mpos reader emulate' does (first line 'listening on \
            127.0.0.1:PORT', then 'discovery on …'), but each transaction's EMV kernel talks to the \
            chip card in a PC/SC reader through pcscd: a USB reader, or vsmartcard's vpcd with \
            'mpos card emulate' in it. The PIN pad is scripted with --pin. PCSCLITE_CSOCK_NAME picks \
            another pcscd socket. docs/pcsc-readers.md.
            """
    )

    @OptionGroup var serving: ReaderServingOptions

    @Option(help: "The PC/SC reader's name (default: the first reader pcscd lists).")
    var reader: String?

    @Option(help: "The PIN the reader's keypad enters at a PIN prompt.")
    var pin: String = "1234"

    func run() async throws {
        #if os(Linux)
            try await serve()
        #else
            throw CLIFailure("mpos reader pcsc runs on Linux, with pcsc-lite; on macOS it is not built yet")
        #endif
    }

    #if os(Linux)
    private func serve() async throws {
        var configuration = try serving.configuration()
        guard (4...12).contains(pin.count), pin.allSatisfy(\.isASCII), pin.allSatisfy(\.isNumber) else {
            throw ValidationError("--pin must be 4 to 12 digits")
        }
        do {
            let readers = try PCSCCardTransport.readers()
            if let reader, !readers.contains(reader) {
                throw CLIFailure(
                    "no PC/SC reader named '\(reader)'; pcscd lists: \(readers.joined(separator: ", "))")
            }
            if readers.isEmpty { CLIOutput.error("pcscd lists no reader yet; each payment looks again") }
        } catch let error as CardError {
            throw CLIFailure("cannot use PC/SC: \(error.message)")
        }
        configuration.entryMode = .chip
        configuration.cardSource = PCSCCardSource(readerName: reader, pin: pin)
        try await serving.serve(SimulatedReader(configuration: configuration), barcodes: try EmulatedBarcodes([]))
    }
    #endif
}
