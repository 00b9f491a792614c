import ArgumentParser
import ReaderLink

/// `mpos reader info --reader HOST:PORT [--secret HEX] [--json]`
struct ReaderInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Pair with a reader and print its device information."
    )

    @OptionGroup var link: ReaderLinkOptions

    @Option(help: "Seconds to wait for the connection and pairing (0 is the default, 15).")
    var timeout: Int = 15

    func validate() throws {
        guard (0...600).contains(timeout) else {
            throw ValidationError("--timeout must be 0 (the default, 15) to 600 seconds, not \(timeout).")
        }
    }

    @Flag(help: "Print one JSON object (model, serial, firmware, configuration, battery, …) instead of text.")
    var json = false

    func run() async throws {
        let answer = try await link.withConnection(timeout: .seconds(timeout > 0 ? timeout : 15)) {
            connection in
            try await link.ask(connection, .getDeviceInfo, "the device information request")
        }
        guard case .deviceInfo(let info) = answer else {
            throw CLIFailure("the reader answered \(answer) instead of its device information")
        }
        if json {
            CLIOutput.line(try ReportOutput.json(Output(info)))
            return
        }
        let battery = info.battery
        CLIOutput.line(
            """
            serial number:       \(info.serialNumber)
            manufacturer:        \(info.manufacturer)
            model:               \(info.model)
            application:         \(info.applicationName) \(info.applicationVersion)
            EMV parameters:      \(info.emvParameterVersion)
            public keys:         \(info.publicKeyVersion)
            battery:             \(battery.percentage)%\(battery.isCharging ? ", charging" : "")\(battery.hasExternalPower ? ", external power" : "")
            """)
    }

    /// The `--json` object: `firmware` is the payment application's version and
    /// `configuration` the EMV parameters' version, the two an update changes.
    private struct Output: Encodable {
        struct Battery: Encodable {
            let percentage: Int
            let charging, externalPower: Bool
        }

        let model, serial, manufacturer, application, firmware, configuration, publicKeys,
            generalParameters: String
        let battery: Battery

        init(_ info: DeviceInfo) {
            model = info.model
            serial = info.serialNumber
            manufacturer = info.manufacturer
            application = info.applicationName
            firmware = info.applicationVersion
            configuration = info.emvParameterVersion
            publicKeys = info.publicKeyVersion
            generalParameters = info.generalParameterVersion
            battery = Battery(
                percentage: Int(info.battery.percentage), charging: info.battery.isCharging,
                externalPower: info.battery.hasExternalPower)
        }
    }
}
