/// The payment pipeline's state: the journal, the card operation running and who decides on
/// its signature and application (what the journal may hold unfinished is ``Recovery``'s).
struct PaymentsState: Sendable {
    /// Every attempt, on disk before its request leaves.
    let journal: PaymentJournal
    /// How long the merchant has to decide on a signature before the payment is cancelled.
    let signatureTimeout: Duration
    /// Why the running card operation's outcome could not be journaled, if it could not.
    var outcomeJournalFailure: MPOSError?
    /// The running card operation's engine and its event inbox.
    var engine: PaymentEngine?
    var inbox: AsyncStream<PaymentEngine.Event>.Continuation?
    /// Who decides on signatures and picks applications (nil: no signature is accepted, so the payment is cancelled at the timeout; the first candidate).
    var signatureHandler: SignatureHandler?
    var applicationHandler: ApplicationSelectionHandler?

    init(journal: PaymentJournal, signatureTimeout: Duration) {
        self.journal = journal
        self.signatureTimeout = signatureTimeout
    }
}
