import ArgumentParser
import ReaderSimulator

/// `--link-kbps`, `--mtu`, `--link-delay-ms`: the emulator behind a link as slow as a radio.
struct LinkOptions: ParsableArguments {
    @Option(help: "The link's rate in kilobits per second, each way (default: no limit); 512 is 64 kB/s.")
    var linkKbps: Int?

    @Option(help: "The largest piece the link carries, in bytes (default: no limit); Bluetooth LE carries 20 to 244.")
    var mtu: Int?

    @Option(help: "The link's one-way delay in milliseconds (default 0); a BLE connection interval is 7.5 to 50.")
    var linkDelayMs: Int?

    /// Sets the reader's link from the options, checked.
    func apply(to configuration: inout SimulatedReaderConfiguration) throws {
        if let linkKbps, !(1...1_000_000).contains(linkKbps) {
            throw ValidationError("--link-kbps must be 1 to 1000000, not \(linkKbps)")
        }
        if let mtu, !(20...65_535).contains(mtu) { throw ValidationError("--mtu must be 20 to 65535, not \(mtu)") }
        if let linkDelayMs, !(0...10_000).contains(linkDelayMs) {
            throw ValidationError("--link-delay-ms must be 0 to 10000, not \(linkDelayMs)")
        }
        configuration.link = LinkProfile(
            bytesPerSecond: linkKbps.map { $0 * 1_000 / 8 }, mtu: mtu,
            oneWayDelay: .milliseconds(linkDelayMs ?? 0))
    }
}
