import ArgumentParser
import Foundation
import MPOSKit

/// `--terminal URL --poi-id ID [--sale-id ID] [--key-…]`: run a payment command on a networked
/// Terminal API terminal instead of a reader and gateway.
struct NetworkedTerminalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A networked Terminal API terminal's base URL (e.g. http://127.0.0.1:8443, as `mpos terminal emulate` "
                + "prints): the terminal runs the payment with its own acquirer; no gateway login.",
            valueName: "url"))
    var terminal: String?

    @Option(help: "The networked terminal's POIID (with --terminal).")
    var poiId: String?

    @Option(help: "This sale system's SaleID in the requests (with --terminal).")
    var saleId = "mpos"

    @OptionGroup var key: NexoKeyOptions

    func validate() throws {
        guard let terminal else {
            if poiId != nil { throw ValidationError("--poi-id goes with --terminal.") }
            if key.keyIdentifier != nil { throw ValidationError("--key-identifier goes with --terminal.") }
            return
        }
        guard let url = URL(string: terminal), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else { throw ValidationError("--terminal must be an http(s) URL, e.g. http://127.0.0.1:8443") }
        guard let poiId, !poiId.isEmpty else {
            throw ValidationError("--terminal needs --poi-id, the terminal's POIID.")
        }
    }

    /// The networked terminal asked for; nil without --terminal.
    var networkedTerminal: NetworkedTerminal? {
        guard let terminal, let url = URL(string: terminal), let poiId else { return nil }
        return NetworkedTerminal(url: url, poiID: poiId, saleID: saleId, key: key.securityKey)
    }
}
