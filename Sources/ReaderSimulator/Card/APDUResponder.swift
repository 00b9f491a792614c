import CardCrypto
import EMV
import SandboxCards

/// A sandbox card that answers ISO 7816-4 command APDUs, as a chip in a reader does: the
/// card side of ``APDUCard``, served to pcscd by `mpos card emulate` or to the kernel in memory.
///
/// It holds the card's real keys (a ``SimulatedCard``), so the sandbox issuer verifies its
/// cryptograms, and it answers SELECT (PPSE and AID), GET PROCESSING OPTIONS, READ RECORD,
/// GET DATA (9F17, 9F36), VERIFY (plaintext offline PIN), GENERATE AC, EXTERNAL AUTHENTICATE
/// and, on T=0, GET RESPONSE.
///
/// ```swift
/// var card = try APDUResponder(card: SimulatedCard(card: SandboxCards.card(id: "visa-credit")!))
/// let answer = card.respond(to: [0x00, 0xA4, 0x04, 0x00, 0x0E] + Array("2PAY.SYS.DDF01".utf8) + [0x00])
/// ```
public struct APDUResponder: Sendable {
    /// How the card answers beyond the happy path.
    public struct Options: Sendable, Hashable {
        /// Answer as a T=0 card: `61xx` for the data of a command that carries data (the
        /// terminal fetches it with GET RESPONSE), `6Cxx` when Le does not match the data.
        public var t0: Bool
        /// The card is pulled out after answering this many commands: it answers no more.
        public var pullAfter: Int?

        /// Creates options.
        public init(t0: Bool = false, pullAfter: Int? = nil) {
            self.t0 = t0
            self.pullAfter = pullAfter
        }
    }

    /// The chip with its keys and counters.
    public internal(set) var card: SimulatedCard
    /// The options.
    public let options: Options
    /// The commands answered so far (GET RESPONSE included).
    public private(set) var commandsAnswered = 0
    /// Response data a T=0 card holds for GET RESPONSE.
    private var pending: [UInt8] = []

    /// A card that answers as `card`.
    public init(card: SimulatedCard, options: Options = Options()) {
        self.card = card
        self.options = options
    }

    /// Whether the card is still in the reader.
    public var isPresent: Bool { options.pullAfter.map { commandsAnswered < $0 } ?? true }

    /// The answer to one command APDU, status words included; `nil` once the card is pulled out.
    public mutating func respond(to command: [UInt8]) -> [UInt8]? {
        guard isPresent else { return nil }
        commandsAnswered += 1
        guard let apdu = CommandAPDU(bytes: command) else { return ResponseAPDU(sw: 0x6700).bytes }
        if apdu.ins == 0xC0 { return getResponse(apdu).bytes }
        pending = []
        let response = answer(apdu)
        guard options.t0, response.isSuccess, !response.data.isEmpty else { return response.bytes }
        if !apdu.data.isEmpty {
            // Case 4 on T=0: the data waits for GET RESPONSE.
            pending = response.data
            return ResponseAPDU(sw1: 0x61, sw2: UInt8(truncatingIfNeeded: min(response.data.count, 256)))
                .bytes
        }
        if let expected = apdu.expectedLength, expected != response.data.count {
            return ResponseAPDU(sw1: 0x6C, sw2: UInt8(truncatingIfNeeded: response.data.count)).bytes
        }
        return response.bytes
    }

    private mutating func getResponse(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard !pending.isEmpty else { return ResponseAPDU(sw: 0x6985) }
        let count = min(apdu.expectedLength ?? 256, pending.count)
        let data = Array(pending.prefix(count))
        pending.removeFirst(count)
        if pending.isEmpty { return ResponseAPDU(data: data, sw: 0x9000) }
        return ResponseAPDU(data: data, sw1: 0x61, sw2: UInt8(truncatingIfNeeded: min(pending.count, 256)))
    }

    private mutating func answer(_ apdu: CommandAPDU) -> ResponseAPDU {
        switch (apdu.cla, apdu.ins) {
        case (0x00, 0xA4): return select(apdu)
        case (0x80, 0xA8): return getProcessingOptions()
        case (0x00, 0xB2): return readRecord(apdu)
        case (0x80, 0xCA): return getData(apdu)
        case (0x00, 0x20): return verify(apdu)
        case (0x80, 0xAE): return generateAC(apdu)
        case (0x00, 0x82): return externalAuthenticate(apdu)
        case (0x00, _), (0x80, _): return ResponseAPDU(sw: 0x6D00)
        default: return ResponseAPDU(sw: 0x6E00)
        }
    }
}
