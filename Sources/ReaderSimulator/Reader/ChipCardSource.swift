/// Where a reader's card comes from when it is a card in a real reader rather than a sandbox
/// card in software: a PC/SC reader, reached by APDUs (`mpos reader pcsc`).
///
/// With a source in its configuration, ``SimulatedReader`` runs its transactions against the card
/// the source connects to, through ``APDUCard``, and everything else (pairing, prompts, the link,
/// the host round trip) stays the emulator's.
public protocol ChipCardSource: Sendable {
    /// Connects to the card in the reader for one transaction.
    /// - Throws: ``CardError`` with ``CardError/Kind/removed`` when no card is in the reader, or
    ///   ``CardError/Kind/transport`` when the reader cannot be used.
    func connect() async throws(CardError) -> any APDUTransport
    /// The PIN the reader's keypad enters at a PIN prompt (scripted, as `--pin` gives it).
    var pin: String { get }
    /// Whether a card is in the reader, first as it stands and then at each insertion and
    /// removal, as the reader reports them; nil when the source cannot tell (the reader then
    /// announces a card at each transaction, as the emulator does).
    func presenceChanges() -> AsyncStream<Bool>?
}

extension ChipCardSource {
    /// None: the source cannot tell.
    public func presenceChanges() -> AsyncStream<Bool>? { nil }
}
