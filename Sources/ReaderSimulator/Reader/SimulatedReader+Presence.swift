import ReaderLink

/// Card events from a card source that sees its reader (a PC/SC reader reports insertions and
/// removals), instead of the ones each transaction plays.
extension SimulatedReader {
    /// Starts forwarding the card source's presence changes as card events, once per reader;
    /// an event with no terminal paired goes nowhere.
    func watchCardPresence() {
        guard presenceWatch == nil, let changes = configuration.cardSource?.presenceChanges() else { return }
        cardSourceReportsPresence = true
        // Unstructured: it lives as long as the reader; the stream ends with the source.
        presenceWatch = Task { [weak self] in
            for await present in changes {
                await self?.emit(.cardEvent(present ? .inserted : .removed))
            }
        }
    }
}
