import ArgumentParser
import Foundation
import MPOSKit
import ReaderLink
import ReaderLinkTCP

/// `mpos reader discover [--scan-time S] [--probe HOST:PORT …] [--json]`
struct ReaderDiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List the readers that answer discovery probes on the local network.",
        discussion: """
            Sends UDP probes (docs/reader-protocol.md §9) for --scan-time seconds and lists each \
            reader that answers once: name, serial number, model and its ReaderLink address \
            (give that to --reader). Without --probe, probes go to the broadcast address and to \
            127.0.0.1, both on UDP port \(DiscoveryDatagram.defaultPort). Exits 0 (also when \
            nothing answers), 1 on bad arguments.

            Examples:
              mpos reader discover
              mpos reader discover --scan-time 2 --probe 127.0.0.1:47300 --json
            """)

    @Option(help: "Seconds to listen for answers (at most 600; 0 is the default, 5).")
    var scanTime: Double = 5

    @Option(help: "Where to send probes, HOST:PORT; repeat for several (default: broadcast and 127.0.0.1).")
    var probe: [String] = []

    @Flag(help: "Print the readers as one JSON array instead of text.")
    var json = false

    func run() async throws {
        guard scanTime >= 0, scanTime <= 600 else {
            throw CLIFailure("invalid --scan-time \(scanTime): give seconds, 0 (the default, 5) to 600")
        }
        let scanTime = scanTime > 0 ? scanTime : 5
        let targets: [DiscoveryProbeTarget] =
            try probe.isEmpty ? [.broadcast, .loopback] : probe.map(Self.target)
        let scan = ReaderDiscovery(
            scanners: [TCPReaderScanner(targets: targets)], scanTime: .milliseconds(Int64(scanTime * 1000)))
        var found: [DiscoveredReader] = []
        for await reader in scan.readers() {
            found.append(reader)
            if !json { CLIOutput.line(Self.describe(reader)) }
        }
        if json {
            CLIOutput.line(try Self.json(found))
        } else {
            CLIOutput.line(found.isEmpty ? "no readers found" : "\(found.count) reader(s) found")
        }
    }

    /// `--probe HOST:PORT`, or a failure naming it.
    static func target(_ text: String) throws -> DiscoveryProbeTarget {
        guard let address = try? ReaderAddress.parse(text) else {
            throw CLIFailure(
                "invalid --probe '\(text)': give HOST:PORT, e.g. 127.0.0.1:\(DiscoveryDatagram.defaultPort)")
        }
        return DiscoveryProbeTarget(host: address.host, port: address.port)
    }

    /// One line per reader: name, serial number, model, transport and address.
    static func describe(_ reader: DiscoveredReader) -> String {
        "\(reader.name)  \(reader.serialNumber)  \(reader.model)  \(reader.transportKind) \(reader.address ?? "-")"
    }

    /// The readers as a JSON array with stable keys.
    static func json(_ readers: [DiscoveredReader]) throws -> String {
        let rows = readers.map {
            Row(
                id: $0.id, name: $0.name, serialNumber: $0.serialNumber, model: $0.model,
                transport: $0.transportKind.rawValue, address: $0.address,
                protocolVersion: Int($0.announcement.protocolVersion))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    private struct Row: Encodable {
        let id, name, serialNumber, model, transport: String
        let address: String?
        let protocolVersion: Int
    }
}
