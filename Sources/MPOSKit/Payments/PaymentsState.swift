/// The payments part's state: the journal, what it may hold unfinished, the card operation
/// running and who decides on its signature and application.
struct PaymentsState: Sendable {
    /// Every attempt, on disk before its request leaves.
    let journal: PaymentJournal
    /// How long the merchant has to decide on a signature before the payment is cancelled.
    let signatureTimeout: Duration
    /// Whether the journal may hold card attempts, or follow-ups, left unfinished (their
    /// outcome unknown, or a reversal not confirmed): set when an operation ends so, cleared
    /// by a pass that finishes them all. Until the first pass (at login) the journal is not
    /// known. While both are false no operation reads the journal before it starts.
    var cardAttemptsMayBeUnfinished = true
    var followUpsMayBeUnfinished = true
    /// Why the running card operation's outcome could not be journaled, if it could not.
    var outcomeJournalFailure: MPOSError?
    /// Outcomes the journal refused, kept to be written before recovery reads the journal:
    /// without them recovery would take a completed approval for one whose card never
    /// completed, and reverse it.
    var unwrittenOutcomes: [JournalEntry] = []
    /// Why the journal refused this terminal's gateway and merchant at the last login: while
    /// set, nothing in the journal is looked up, reversed or resumed.
    var journalRefusal: MPOSError?
    /// Whether a login bound the journal to this terminal's gateway and merchant; recovery
    /// asks no gateway about the journal's attempts before.
    var journalBound = false
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
