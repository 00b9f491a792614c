/// The ISO 7816-3 and 7816-4 transport rules between the kernel and a card, written once for
/// every ``APDUTransport``: a card on T=0 that answers `61xx` has `xx` bytes waiting for a
/// GET RESPONSE, and one that answers `6Cxx` wants the same command again with Le `xx`.
public struct ISO7816Channel: Sendable {
    /// The transport below.
    public let transport: any APDUTransport
    /// The most GET RESPONSE and resend rounds one command may take before the card is taken
    /// as broken.
    public static let maximumRounds = 32

    /// A channel over a transport.
    public init(transport: any APDUTransport) { self.transport = transport }

    /// Sends `command` and returns the card's whole answer.
    /// - Throws: ``CardError``: the transport's, or ``CardError/Kind/unexpectedAnswer`` for an
    ///   answer shorter than two bytes or a card that keeps asking for more rounds.
    public func transmit(_ command: CommandAPDU) throws(CardError) -> ResponseAPDU {
        var command = command
        var data: [UInt8] = []
        for _ in 0..<Self.maximumRounds {
            let response = try exchange(command)
            switch response.sw1 {
            case 0x6C:
                // Wrong length: the same command again with the length the card names.
                command.le = response.sw2
            case 0x61:
                data += response.data
                command = CommandAPDU(cla: command.cla & 0x03, ins: 0xC0, p1: 0, p2: 0, le: response.sw2)
            default:
                return ResponseAPDU(data: data + response.data, sw1: response.sw1, sw2: response.sw2)
            }
        }
        throw CardError(
            .unexpectedAnswer, "\(command): the card asked for more than \(Self.maximumRounds) rounds")
    }

    private func exchange(_ command: CommandAPDU) throws(CardError) -> ResponseAPDU {
        let bytes = try transport.transmit(command.bytes)
        guard let response = ResponseAPDU(bytes: bytes) else {
            throw CardError(.unexpectedAnswer, "\(command): an answer of \(bytes.count) bytes")
        }
        return response
    }
}
