import Foundation
import ReaderLink

/// The readers an app supports, what to call them, and the cards each must not take: the
/// Accept seed's `paymentmethods.xml`, which an app ships in its resources and may edit.
///
/// Set it with ``CardReaderLink/setCatalogue(_:)``: discovery then lists supported models only,
/// under the catalogue's names; connecting to another model is refused with
/// ``MPOSError/readerNotSupported``; and a card the connected model must not take is declined
/// as soon as the reader identifies it, before anything is sent to the gateway
/// (``MPOSError/cardNotAccepted``).
///
/// ```swift
/// let catalogue = try TerminalCatalogue(xml: Data(contentsOf: Bundle.main.url(
///     forResource: "paymentmethods", withExtension: "xml")!))
/// await terminal.reader.setCatalogue(catalogue)
/// ```
///
/// The file names each terminal by model, with the name to show and its blacklist:
///
/// ```xml
/// <paymentmethods>
///   <terminal model="Simulated Reader R1" name="Counter reader">
///     <blacklist>
///       <card scheme="amex"/>
///       <card bin="601111"/>
///       <card aid="A0000001523010"/>
///     </blacklist>
///   </terminal>
/// </paymentmethods>
/// ```
public struct TerminalCatalogue: Sendable, Hashable {
    /// One supported reader model.
    public struct Terminal: Sendable, Hashable {
        /// The model, as the reader reports it (``DeviceInfo/model``, the announcement's model).
        public var model: String
        /// The name to show the merchant for readers of this model.
        public var name: String
        /// The cards readers of this model must not take.
        public var blacklist: [BlacklistedCard]

        /// Creates a terminal entry.
        public init(model: String, name: String, blacklist: [BlacklistedCard] = []) {
            self.model = model
            self.name = name
            self.blacklist = blacklist
        }
    }

    /// A card, or a family of cards, a model must not take.
    public enum BlacklistedCard: Sendable, Hashable {
        /// Every card of a scheme, such as `"amex"` (as ``PaymentResult/scheme`` names them).
        case scheme(String)
        /// Cards whose number starts with these digits (1 to 8; the masked number shows 6).
        case bin(String)
        /// Cards paying with this EMV application (its AID, hex).
        case aid(String)

        /// Whether the card a reader identified is this one.
        func matches(scheme: String?, maskedPAN: String, aid: String?) -> Bool {
            switch self {
            case .scheme(let blocked): scheme?.lowercased() == blocked.lowercased()
            case .bin(let prefix): maskedPAN.hasPrefix(prefix)
            case .aid(let blocked): aid?.uppercased() == blocked.uppercased()
            }
        }
    }

    /// The supported models, in the file's order.
    public var terminals: [Terminal]

    /// A catalogue of `terminals`.
    public init(terminals: [Terminal]) { self.terminals = terminals }

    /// The entry of `model`, nil when the model is not supported.
    public func terminal(model: String) -> Terminal? { terminals.first { $0.model == model } }

    /// Why readers of `model` must not take the card they identified, or nil when they may.
    func refusal(model: String?, scheme: String?, maskedPAN: String, aid: String?) -> BlacklistedCard? {
        guard let model, let terminal = terminal(model: model) else { return nil }
        return terminal.blacklist.first { $0.matches(scheme: scheme, maskedPAN: maskedPAN, aid: aid) }
    }
}
