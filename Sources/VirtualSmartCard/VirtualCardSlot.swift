import ReaderSimulator

/// A card in one vpcd slot, as a pure state machine: a message from vpcd in, the reply (if the
/// message wants one) out.
///
/// One-byte messages are controls: `0` power off, `1` power on, `2` reset (none answered) and
/// `4` ATR (answered with the ATR). Any longer message is a command APDU, answered with the
/// response APDU; a card pulled out answers nothing more, and its connection should close.
public struct VirtualCardSlot: Sendable {
    /// What the slot does with one message.
    public enum Reply: Sendable, Hashable {
        /// Send these bytes back, framed.
        case answer([UInt8])
        /// Nothing to send.
        case none
        /// The card left the reader: close the connection.
        case pulledOut
    }

    /// The card.
    public private(set) var card: APDUResponder
    /// Whether the card is powered.
    public private(set) var powered = false

    /// A slot with `card` in it.
    public init(card: APDUResponder) { self.card = card }

    /// The ATR: T=0 only (`3B 00`), or T=1 (`3B 80 80 01 01`) when the card answers in T=1 style.
    public var atr: [UInt8] { card.options.t0 ? [0x3B, 0x00] : [0x3B, 0x80, 0x80, 0x01, 0x01] }

    /// Handles one message from vpcd.
    public mutating func receive(_ message: [UInt8]) -> Reply {
        guard card.isPresent else { return .pulledOut }
        if message.count == 1 {
            switch message[0] {
            case 0x00: powered = false
            case 0x01, 0x02: powered = true
            case 0x04: return .answer(atr)
            default: break
            }
            return .none
        }
        guard let response = card.respond(to: message) else { return .pulledOut }
        return .answer(response)
    }
}
