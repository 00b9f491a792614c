import Synchronization

/// An ``APDUTransport`` to an ``APDUResponder`` in the same process, for tests and the
/// benchmark: the kernel's commands reach the card as bytes, as through a reader.
public final class InMemoryAPDUTransport: APDUTransport {
    private let responder: Mutex<APDUResponder>

    /// A transport to `responder`.
    public init(_ responder: APDUResponder) { self.responder = Mutex(responder) }

    /// The card as it stands (its counters, the commands it answered).
    public var card: APDUResponder { responder.withLock { $0 } }

    /// Hands the command to the card.
    /// - Throws: ``CardError/Kind/removed`` once the card is pulled out.
    public func transmit(_ command: [UInt8]) throws(CardError) -> [UInt8] {
        guard let answer = responder.withLock({ $0.respond(to: command) }) else {
            throw CardError(.removed, "the card was pulled out")
        }
        return answer
    }
}
