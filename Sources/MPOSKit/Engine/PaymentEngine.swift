import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// The sale's logic as a pure state machine: the driving actor feeds it events (reader
/// messages, gateway answers, app decisions) and performs the effects it returns, in order.
/// No I/O, no clock, no randomness: every path is a unit test.
///
/// The rules it keeps:
/// - the attempt is journaled before the gateway request leaves;
/// - a lost gateway answer is looked up by the idempotency key, and the request is sent
///   again (same key) only when the gateway never saw it;
/// - an approval the card declines, or that reaches no reader, is reversed;
/// - a failure is never reported for an approval.
struct PaymentEngine: Sendable {
    enum Event: Sendable, Hashable {
        /// Begin: journal and start the reader.
        case start
        /// The reader refused to start (or the link failed before it did).
        case readerRefused(MPOSError)
        /// An unsolicited reader message.
        case reader(ReaderMessage)
        /// The reader link went away.
        case readerLost
        /// The gateway answered the authorisation.
        case gatewayAnswered(GatewayAnswer)
        /// The authorisation got no answer: it may or may not have been processed.
        case gatewayUnreachable
        /// The lookup of the attempt by key.
        case lookedUp(AttemptLookup)
        /// The reversal finished (`true`) or could not be completed now (`false`).
        case reversalFinished(Bool)
        /// The app chose an application (`nil` cancels).
        case applicationChosen(UInt8?)
        /// The merchant's signature verdict (`nil`: no answer within the timeout).
        case signatureDecided(SignatureDecision?)
        /// The sale the card approved offline was stored (its id), or could not be.
        case offlineStored(Result<UUID, MPOSError>)
    }

    enum Effect: Sendable, Hashable {
        case journal(JournalEntry)
        case sendToReader(ReaderMessage)
        case authorize(AuthorizeCardRequest, IdempotencyKey)
        /// Look the attempt up, after waiting `delay`.
        case lookup(IdempotencyKey, delay: Duration)
        case reverse(TransactionID, IdempotencyKey, ReversalReason)
        case emit(TerminalEvent)
        case askApplication([ApplicationCandidate])
        case askSignature(SignatureRequest)
        case finish(PaymentResult)
        /// Store the sale the card approved offline (durably, before anything else): the
        /// forward request as it will be sent, under the attempt's key.
        case storeOffline(AuthorizeCardRequest, IdempotencyKey)
    }

    enum Phase: Sendable, Hashable {
        case idle, reading, authorizing, recovering, completing, reversing, finished
    }

    let parameters: PaymentParameters
    /// What the card is asked for: a sale, a (pre-)authorisation, an unreferenced refund or
    /// a SEPA direct debit. Only the reader's transaction type, the gateway route and the
    /// recorded kind differ; the flow and its guarantees are the same.
    let kind: CardOperation
    /// The SEPA mandate reference the merchant assigns, if any (``CardOperation/sepa`` only).
    var mandateReference: String?
    /// The connected reader as the gateway's terminal management knows it, sent with the
    /// request so that the gateway judges its update deadlines; nil when the terminal has no
    /// description of it.
    var reader: PaymentReader?
    let key: IdempotencyKey
    let readerTransactionID: String
    let merchantName: String?
    /// How a lost authorisation answer is looked up and the request sent again.
    let retry: RetryPolicy
    /// Why this sale may not be taken offline although ``PaymentParameters/offlineAllowed``
    /// (an offline limit reached), or nil: the terminal checks the policy before the start.
    var offlineRefusal: MPOSError?
    var phase: Phase = .idle
    var entry: JournalEntry

    /// Whether the attempt's journal entry is left unfinished (its outcome unknown, or its
    /// reversal not confirmed): a later pass must finish it.
    var leavesJournalUnfinished: Bool { entry.state != .finished }
    private(set) var request: AuthorizeCardRequest?
    private(set) var authorization: AuthorizationRequest?
    var host: Transaction?
    var hostRefusal: GatewayErrorBody?
    private(set) var outcome: TransactionOutcome?
    var recovered = false
    var readerGone = false
    /// The lookup-then-resend rule for the authorisation.
    var delivery: GatewayDelivery
    private var cancelAllowed = false
    /// Set when the engine gave up asking: the journal keeps the attempt for the next start.
    var outcomeUnknown = false
    private var lastStatus: ReaderStatusCode?
    /// Whether the reader asked for a card (its waiting-card status, a card event, or a step
    /// that needs one).
    private(set) var promptedForCard = false
    /// Whether the reader ended the transaction, other than by a cancel, before it asked for a
    /// card: the TSM seed's "all transactions are declining before prompting for a card".
    private(set) var declinedBeforeCardPrompt = false
    /// The cards the connected reader's model must not take (the terminal catalogue's blacklist).
    var blacklist: [TerminalCatalogue.BlacklistedCard] = []
    /// Set when the card was refused by the blacklist: declined without asking the gateway.
    var blacklisted: MPOSError?
    /// Set when the merchant gave no signature decision within the timeout.
    private(set) var signatureTimedOut = false
    /// Between the reader's signature prompt and the merchant's decision.
    private var awaitingSignature = false
    /// What the cardholder drew on the reader's pad, when it has one.
    private(set) var signature: CardholderSignature?
    /// The tip the cardholder chose on the reader, when the sale offered one.
    private(set) var tip: TipEntry?
    /// The tip prompt the reader shows: a sale's ``PaymentParameters/tipOptions``.
    var tipOptions: TipOptions? { kind == .sale ? parameters.tipOptions : nil }
    /// Set when the card was told the terminal could not go online (it decides itself).
    var offline = false
    private(set) var offlineID: UUID?
    /// Why the sale could not be taken offline, reported when the card finishes.
    var onlineRequired: MPOSError?

    init(
        parameters: PaymentParameters, kind: CardOperation = .sale, key: IdempotencyKey,
        readerTransactionID: String,
        merchantName: String?, now: Date, retry: RetryPolicy = .standard
    ) {
        self.parameters = parameters
        self.kind = kind
        self.key = key
        self.readerTransactionID = readerTransactionID
        self.merchantName = merchantName
        self.retry = retry
        delivery = GatewayDelivery(policy: retry)
        entry = JournalEntry(
            key: key, operation: .card(kind), readerTransactionID: readerTransactionID,
            originalTransactionID: nil,
            amount: parameters.amount, currency: parameters.currency, state: .created, maskedPAN: nil,
            gatewayTransactionID: nil, outcome: nil, createdAt: now, updatedAt: now)
    }

    /// Whether the reader said, in its last status, that cancel is possible.
    var isCancelAllowed: Bool { cancelAllowed && phase == .reading }
    /// Whether the reader's last status is PIN entry, which only the cardholder can cancel.
    var isAtPINEntry: Bool { lastStatus == .pinInput && phase == .reading }

    mutating func handle(_ event: Event) -> [Effect] {
        guard phase != .finished else { return [] }
        switch event {
        case .start:
            phase = .reading
            return [
                .journal(entry),
                .sendToReader(
                    .startTransaction(
                        StartTransaction(
                            transactionID: readerTransactionID, kind: kind.readerKind,
                            amountMinorUnits: parameters.amount,
                            currency: .alphabetic(parameters.currency.code),
                            tipAmounts: tipOptions?.amounts ?? [],
                            tipPercentages: tipOptions?.percentages.compactMap { UInt8(exactly: $0) } ?? [],
                            cardholderPresent: parameters.cardholderPresent,
                            allowsCustomTip: tipOptions?.allowsCustomAmount ?? false))),
            ]
        case .readerRefused(let error):
            return finish(.failed, error: error)
        case .reader(let message):
            return handleReader(message)
        case .readerLost:
            readerGone = true
            switch phase {
            case .idle, .reading:
                return finish(.failed, error: .readerLinkFailed)
            case .completing:
                // The host approved (or declined) and the card never said its final word.
                if let host, host.status.isApproval {
                    return startReversal(host.id, reason: .terminalError)
                }
                if host?.status == .pending { return finish(.pending, error: nil) }
                return finish(.declined, error: .readerLinkFailed)
            case .authorizing, .recovering, .reversing, .finished:
                // The answer still comes; it is handled knowing the reader is gone.
                return []
            }
        case .gatewayAnswered(let answer):
            guard phase == .authorizing || phase == .recovering else { return [] }
            return hostAnswered(answer)
        case .gatewayUnreachable:
            guard phase == .authorizing else { return [] }
            let first = !recovered
            let effects = follow(delivery.handle(.unanswered))
            return first ? [.emit(.recovering)] + effects : effects
        case .lookedUp(let lookup):
            guard phase == .recovering else { return [] }
            return follow(delivery.handle(GatewayDelivery.event(lookup)))
        case .reversalFinished(let done):
            guard phase == .reversing else { return [] }
            if done { entry.state = .finished }
            let status: PaymentStatus = signatureTimedOut ? .cancelled : .declined
            entry.outcome = status
            var effects: [Effect] = [.journal(entry)]
            let cancelled = signatureTimedOut
                ? MPOSError.paymentCancelled.withMessage(
                    "No signature decision came in time; the payment was cancelled and its approval reversed.")
                : nil
            effects += finish(
                status,
                error: done
                    ? cancelled
                    : MPOSError.gatewayUnreachable.withMessage(
                        "The reversal is not confirmed yet; the journal finishes it at the next start."),
                reversed: done, journal: false)
            return effects
        case .applicationChosen(let index):
            guard phase == .reading else { return [] }
            return [.sendToReader(.applicationSelectionResponse(index.map { .chosen(index: $0) } ?? .cancel))]
        case .offlineStored(let stored):
            guard phase == .completing, offline else { return [] }
            switch stored {
            case .success(let id):
                // The store owns the attempt now: the journal entry ends here, so recovery
                // never settles it as an unknown online outcome as well.
                offlineID = id
                outcomeUnknown = false
                return finish(.approvedOffline, error: nil)
            case .failure(let error):
                return finish(.failed, error: error)
            }
        case .signatureDecided(let decision):
            guard !readerGone else { return [] }
            // No answer in time ends the payment as cancelled, not declined (Handpoint's
            // `cancelSignature`): the card is still told no, so the approval is reversed.
            signatureTimedOut = decision == nil
            awaitingSignature = false
            // Signed on the app's screen: the drawing is the payment's, unless the reader's pad made one.
            if case .acceptSigned(let drawn) = decision, signature == nil { signature = drawn }
            return [
                .sendToReader(
                    .signatureVerdict(
                        SignatureVerdict(
                            transactionID: readerTransactionID, accepted: decision?.accepts == true)))
            ]
        }
    }

    // MARK: - Steps

    private mutating func handleReader(_ message: ReaderMessage) -> [Effect] {
        switch message {
        case .statusReport(let report):
            cancelAllowed = report.cancelAllowed
            lastStatus = report.status
            if report.status == .waitingCard { promptedForCard = true }
            return [
                .emit(
                    .readerStatus(
                        status: report.status, message: report.message, cancelAllowed: report.cancelAllowed))
            ]
        case .cardEvent(let event):
            promptedForCard = true
            return [.emit(.card(event))]
        case .pinEntryProgress(let progress):
            return [.emit(.pinEntry(digits: Int(progress.digitsEntered)))]
        case .tipEntered(let entry):
            // Only the tip of the prompt this sale asked for, before its authorisation.
            guard phase == .reading, tipOptions != nil, entry.transactionID == readerTransactionID,
                entry.tipAmountMinorUnits >= 0
            else { return [] }
            tip = entry
            return []
        case .applicationSelectionRequest(let candidates):
            return [.emit(.applicationSelection(candidates)), .askApplication(candidates)]
        case .signatureRequired(_, let signature):
            self.signature = signature
            let request = signatureRequest()
            awaitingSignature = true
            return [.emit(.signatureRequired(request)), .askSignature(request)]
        case .authorizationRequest(let authorization):
            promptedForCard = true
            guard phase == .reading else { return [] }
            self.authorization = authorization
            if let entry = blacklistEntry(for: authorization) { return refuseBlacklisted(authorization, entry) }
            let request = parameters.authorizeCardRequest(
                kind: kind.cardPaymentKind, card: authorization, reader: reader,
                tip: tip?.tipAmountMinorUnits ?? 0)
            self.request = request
            phase = .authorizing
            entry.state = .authorizing
            entry.maskedPAN = authorization.maskedPAN
            return [.journal(entry), .emit(.authorizing), .authorize(request, key)]
        case .transactionOutcome(let outcome):
            self.outcome = outcome
            if !promptedForCard, !Self.cancellations.contains(outcome.status) {
                declinedBeforeCardPrompt = true
            }
            return cardFinished(outcome)
        default:
            return []
        }
    }

    private mutating func cardFinished(_ outcome: TransactionOutcome) -> [Effect] {
        if let blacklisted { return finish(.declined, error: blacklisted) }
        // The reader's own signature timer ran out before the merchant answered.
        if awaitingSignature { signatureTimedOut = true }
        if offline { return cardDecidedOffline(outcome) }
        if let onlineRequired { return finish(.failed, error: onlineRequired) }
        // A refund the gateway received and decides later: whatever the card says, it is
        // finished here (the outcome comes by webhook), never reversed nor retried.
        if host?.status == .pending { return finish(.pending, error: nil) }
        if let host, host.status.isApproval {
            // A SEPA debit is the gateway's mandate, not an issuer authorisation: there is no
            // ARPC for the card to check, so its final cryptogram does not decide. A refused
            // mandate signature still undoes it.
            let sepaSigned = kind == .sepa && outcome.status != .invalidSignature
            if outcome.cryptogramType == .tc || sepaSigned {
                entry.state = .finished
                entry.outcome = .approved
                return finish(.approved, error: nil)
            }
            // The card (or the merchant, at the signature) declined what the host approved.
            let reason: ReversalReason = outcome.status == .invalidSignature ? .terminalError : .cardDeclined
            return startReversal(host.id, reason: reason)
        }
        if host != nil { return finish(.declined, error: nil) }
        if let hostRefusal {
            if hostRefusal.code == MPOSError.Code.gatewayUnreachable {
                return finish(.failed, error: .gatewayUnreachable)
            }
            if hostRefusal.code == MPOSError.Code.gatewayUnauthorized {
                return finish(
                    .failed,
                    error: .gatewayUnauthorized.withMessage(
                        "The gateway refused the session and a new login; the outcome is looked up after the next login."
                    ))
            }
            return finish(.failed, error: refusalError(hostRefusal))
        }
        // Ended before going online.
        if Self.cancellations.contains(outcome.status) {
            return finish(
                .cancelled,
                error: MPOSError.paymentCancelled.withMessage(
                    "The payment was cancelled on the reader (status \(outcome.status.rawValue))."))
        }
        return finish(
            .failed,
            error: MPOSError.readerLinkFailed.withMessage(
                "The reader ended the transaction with status \(outcome.status.rawValue)."))
    }

    /// The statuses of a transaction the cardholder or a timeout ended: cancelled, not declined.
    static let cancellations: Set<ReaderStatusCode> = [
        .userCancelled, .cardCancelled, .requestPaymentTimeout, .inputTimeout,
    ]

    mutating func startReversal(_ id: TransactionID, reason: ReversalReason) -> [Effect] {
        phase = .reversing
        entry.state = .reversing
        return [.journal(entry), .emit(.reversing), .reverse(id, entry.reversalKey, reason)]
    }

    /// The app's error for a gateway refusal: a reader past its update deadline is the same
    /// ``MPOSError/updateRequired`` whether the terminal or the gateway found it; any other
    /// refusal is ``MPOSError/gatewayRefused`` with the gateway's code.
    func refusalError(_ body: GatewayErrorBody) -> MPOSError {
        if body.code == GatewayErrorCode.terminalDeactivated {
            return MPOSError.updateRequired.withMessage("The gateway refused the payment: \(body.message)")
        }
        return MPOSError.gatewayRefused.withMessage("The gateway refused the payment: \(body.description)")
    }

    mutating func finish(
        _ status: PaymentStatus, error: MPOSError?, reversed: Bool = false, journal: Bool = true
    ) -> [Effect] {
        phase = .finished
        var effects: [Effect] = []
        if journal {
            if !outcomeUnknown { entry.state = .finished }
            entry.outcome = status
            effects.append(.journal(entry))
        }
        effects.append(.emit(.completed(status)))
        effects.append(.finish(result(status, error: error, reversed: reversed)))
        return effects
    }
}
