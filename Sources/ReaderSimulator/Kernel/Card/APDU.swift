/// An ISO 7816-4 command APDU in the short form: CLA INS P1 P2 [Lc data] [Le].
public struct CommandAPDU: Sendable, Hashable, CustomStringConvertible {
    /// Class byte.
    public var cla: UInt8
    /// Instruction byte.
    public var ins: UInt8
    /// Parameter 1.
    public var p1: UInt8
    /// Parameter 2.
    public var p2: UInt8
    /// Command data (up to 255 bytes).
    public var data: [UInt8]
    /// Expected response length; `0` asks for up to 256 bytes, `nil` expects none.
    public var le: UInt8?

    /// Creates a command.
    public init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: UInt8? = nil) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// Parses a short command APDU (cases 1 to 4); `nil` for anything else.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        self.init(cla: bytes[0], ins: bytes[1], p1: bytes[2], p2: bytes[3])
        let body = bytes.dropFirst(4)
        switch body.count {
        case 0: break
        case 1: le = body[body.startIndex]
        default:
            let lc = Int(body[body.startIndex])
            guard lc > 0, body.count == 1 + lc || body.count == 2 + lc else { return nil }
            data = Array(body.dropFirst().prefix(lc))
            if body.count == 2 + lc { le = body.last }
        }
    }

    /// The encoded command.
    public var bytes: [UInt8] {
        var out = [cla, ins, p1, p2]
        if !data.isEmpty { out += [UInt8(truncatingIfNeeded: data.count)] + data }
        if let le { out.append(le) }
        return out
    }

    /// The number of bytes `le` asks for (`0` means 256).
    public var expectedLength: Int? { le.map { $0 == 0 ? 256 : Int($0) } }

    /// The header only (`00A40400`, …): commands can carry a PIN or card data, so logs show
    /// no more.
    public var description: String {
        [cla, ins, p1, p2].map { String($0, radix: 16, uppercase: true).leftPadded }.joined()
    }
}

/// An ISO 7816-4 response APDU: data, then the status words SW1 SW2.
public struct ResponseAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The response data.
    public var data: [UInt8]
    /// Status word 1.
    public var sw1: UInt8
    /// Status word 2.
    public var sw2: UInt8

    /// Creates a response.
    public init(data: [UInt8] = [], sw1: UInt8, sw2: UInt8) {
        self.data = data
        self.sw1 = sw1
        self.sw2 = sw2
    }

    /// A response with status word `sw`.
    public init(data: [UInt8] = [], sw: UInt16) {
        self.init(data: data, sw1: UInt8(sw >> 8), sw2: UInt8(truncatingIfNeeded: sw))
    }

    /// Parses the bytes a card sent; `nil` when there are fewer than two.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        self.init(data: Array(bytes.dropLast(2)), sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// The two status bytes as one number (`0x9000`).
    public var sw: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }

    /// Whether the card reported success (`9000`).
    public var isSuccess: Bool { sw == 0x9000 }

    /// The encoded response.
    public var bytes: [UInt8] { data + [sw1, sw2] }

    /// The status words and the data's length, never the data.
    public var description: String {
        "SW \(String(sw, radix: 16, uppercase: true)), \(data.count) bytes"
    }
}

extension String {
    /// Two hex digits for a byte's `String(_:radix:)`.
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
