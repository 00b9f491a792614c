import ReaderLink

/// One SDK at a time: who holds the reader, and whether a newly paired SDK may take it.
extension SimulatedReader {
    /// The SDK the reader serves: its claim number, how it is named to others, and its session
    /// once pairing has finished.
    struct Holder: Sendable {
        let id: Int
        let peer: String
        var session: ReaderDeviceSession?
    }

    /// Decides on an SDK whose pairing proof verified. It takes the reader when nobody holds
    /// it, or when the holder's link has been silent past the idle limit: a live SDK's
    /// keep-alive speaks every 15 to 30 s, so that silence means its end vanished without
    /// closing the link (no FIN), and the stale session is closed with its transaction. A
    /// holder whose link has closed, though the reader has not finished with it yet (an app
    /// that disconnects and connects again at once), counts as gone. Otherwise it is refused
    /// and the holder is untouched.
    func admit(_ claim: Holder) async -> PairingAdmission {
        while let current = holder {
            // A holder still pairing has had no chance to go quiet.
            guard let session = current.session else { return .inUse(by: current.peer) }
            let silence = await session.silence
            let closed = await session.isClosed
            guard holder?.id == current.id else { continue }  // it changed while we asked
            if closed {
                // Its end closed the link: what is left of it is the reader's own clearing up.
                record(.info, "\(current.peer) closed its link: \(claim.peer) takes the reader")
                dropHolder(session)
                continue
            }
            guard silence > ReaderLinkProtocol.idleLinkLimit else {
                record(.info, "refused \(claim.peer): in use by \(current.peer)")
                return .inUse(by: current.peer)
            }
            record(.info, "\(current.peer) silent for \(silence): its link is dropped for \(claim.peer)")
            dropHolder(session)
            await session.close()
        }
        holder = claim
        return .admit
    }

    /// Lets the holder whose session is `session` go, with the transaction it left unfinished.
    private func dropHolder(_ session: ReaderDeviceSession) {
        holder = nil
        guard self.session === session else { return }
        self.session = nil
        transport = nil
        abandonTransaction()
    }

    /// Frees the reader when `claim` still holds it (its link closed, or its pairing failed).
    func release(_ claim: Holder) {
        if holder?.id == claim.id { holder = nil }
    }
}
