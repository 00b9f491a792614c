#if os(Linux)
    import Foundation
    import ReaderSimulator

    /// The card in a PC/SC reader as a reader's ``ChipCardSource``: each transaction connects to
    /// the card anew, so a card taken out and put back (or another card) is read afresh.
    public struct PCSCCardSource: ChipCardSource {
        /// The reader to use, by its PC/SC name; nil: the first reader PC/SC lists.
        public let readerName: String?
        /// The PIN the keypad enters.
        public let pin: String
        /// How long a transaction waits for a card to be inserted.
        public let cardWait: Duration
        /// How often it looks for one meanwhile.
        public let pollInterval: Duration
        /// The clock the wait runs on.
        public let clock: any Clock<Duration>

        /// A source for the card in `readerName`.
        public init(
            readerName: String?, pin: String, cardWait: Duration = .seconds(30),
            pollInterval: Duration = .milliseconds(200),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.readerName = readerName
            self.pin = pin
            self.cardWait = cardWait
            self.pollInterval = pollInterval
            self.clock = clock
        }

        /// Whether a card is in the reader, as pcscd reports it: first as it stands, then at each
        /// insertion and removal. Watches on a thread of its own until the stream is dropped.
        public func presenceChanges() -> AsyncStream<Bool>? {
            let (changes, continuation) = AsyncStream.makeStream(of: Bool.self)
            let monitor = PCSCPresenceMonitor(readerName: readerName, continuation: continuation)
            continuation.onTermination = { _ in monitor.stop() }
            Thread.detachNewThread { monitor.run() }
            return changes
        }

        /// Connects to the card, waiting up to ``cardWait`` for one to be inserted.
        /// - Throws: ``CardError``, as ``PCSCCardTransport/init(readerName:)``: with
        ///   ``CardError/Kind/removed`` when no card came in time.
        public func connect() async throws(CardError) -> any APDUTransport {
            var waited = Duration.zero
            while true {
                do {
                    return try PCSCCardTransport(readerName: readerName)
                } catch  where error.kind == .removed && waited < cardWait {
                    do {
                        try await clock.sleep(for: pollInterval)
                    } catch {
                        throw CardError(.removed, "cancelled while waiting for a card")
                    }
                    waited += pollInterval
                }
            }
        }
    }
#endif
