import ArgumentParser
import EMV

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mpos emv decode HEX` prints BER-TLV data as a tree a person can read.
struct EMVDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode BER-TLV EMV data from hex into a readable tree.",
        discussion: """
            Every object is shown with its tag, name, length and value, and with what the value \
            means for tags that have a decoder (TVR, TSI, CVM list and results, AIP, AUC, terminal \
            capabilities, CID, terminal type, dates, amounts, currencies, countries). Card numbers \
            and track data are always masked.

            Examples:
              mpos emv decode 9505000008000
              mpos emv decode --json 9F3403 1E0002
              pbpaste | mpos emv decode -
            """
    )

    @Argument(help: "Hex digits (spaces and colons allowed; several arguments are joined), or - to read stdin.")
    var hex: [String]

    @Flag(name: .long, help: "Print a JSON array of objects {tag, name, length, value, children, meaning}.")
    var json = false

    mutating func run() async throws {
        let text: String
        if hex == ["-"] {
            var input = ""
            while let line = readLine(strippingNewline: false) { input += line }
            text = input
        } else {
            text = hex.joined(separator: " ")
        }
        switch EMVDecodeOutput.render(hex: text, json: json) {
        case .success(let output):
            print(output, terminator: output.hasSuffix("\n") ? "" : "\n")
        case .failure(let message):
            printToStandardError("error: \(message)")
            throw ExitCode(1)
        }
    }
}

/// Writes one line to standard error.
func printToStandardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}
