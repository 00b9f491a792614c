import CardCrypto
import EMV
import MPOSCore
import SandboxCards

/// The simulated reader's EMV kernel over a sandbox chip in software.
public typealias EMVKernel = EMVCardKernel<SimulatedCard>

/// The reader's EMV kernel and the card it talks to, as one state machine: the device layer
/// drives it with the transaction and the cardholder's answers and relays the host's response.
/// The card is reached through ``EMVCard`` only, so the same kernel runs against
/// ``SimulatedCard`` (Swift calls) and ``APDUCard`` (ISO 7816-4 commands to a card in a reader).
///
/// ```swift
/// var kernel = EMVKernel(card: try SimulatedCard(card: visa), reader: try EMVKernel.sandboxReader())
/// var step = kernel.start(KernelTransaction(amount: 1250))
/// if case .enterPIN = step { step = kernel.enterPIN("1234") }
/// guard case .goOnline(let request) = step else { … }
/// // send request.emvData, request.encryptedCardData, request.ksn to the gateway
/// step = kernel.complete(hostApproved: true, responseCode: "00", issuerAuthenticationData: tag91)
/// guard case .completed(let outcome) = step, outcome.approved else { … }
/// ```
///
/// What it does: application selection (several applications on a contact chip need the
/// cardholder; a tap takes the highest priority), processing restrictions (expiry), CVM
/// selection (PIN online or offline with the try counter, signature, no CVM, the contactless
/// CVM limit), terminal action analysis against the floor limit, the first GENERATE AC (TC or
/// ARQC, an AES-CMAC over ``CryptogramInput`` with the session key of the ATC), card data sealed
/// under DUKPT, issuer authentication (ARPC Method 2 and the CSU, by EXTERNAL AUTHENTICATE) and
/// the second GENERATE AC. The card counts its ATC and computes its cryptograms; a card that
/// stops answering (pulled out, mute) ends the transaction with ``KernelFailure/cardRemoved`` or
/// ``KernelFailure/chipUnreadable``.
public struct EMVCardKernel<Card: EMVCard>: Sendable {
    /// The card in the reader.
    public internal(set) var card: Card
    /// The reader's DUKPT state.
    public internal(set) var reader: DUKPTReader
    /// The terminal's configuration.
    public let terminal: TerminalConfiguration
    var session: Session?

    /// Where the transaction stands between calls.
    struct Session: Sendable {
        var transaction: KernelTransaction
        var application: SandboxApplication?
        var records: CardRecords?
        var onlinePIN: String?
        var phase: Phase
        var tvr = [UInt8](repeating: 0, count: 5)
        var tsi: [UInt8] = [0, 0]
        var cvmResults: [UInt8] = [0x3F, 0x00, 0x00]
        var cvm: CardholderVerification = .notRequired
        var values: [EMVTag: [UInt8]] = [:]
        var authorization: AuthorizationData?
        var atc: UInt16 = 0
        var arqc: [UInt8] = []
        var swiped = false

        enum Phase: Sendable { case selecting([SandboxApplication]), pin(online: Bool), online, done }

        mutating func set(_ flag: TerminalVerificationResults.Flag) {
            tvr[flag.byte - 1] |= 1 << UInt8(flag.bit - 1)
        }

        mutating func set(_ flag: TransactionStatusInformation.Flag) {
            tsi[flag.byte - 1] |= 1 << UInt8(flag.bit - 1)
        }
    }

    /// A kernel for a card in a reader.
    public init(
        card: Card, reader: DUKPTReader, terminal: TerminalConfiguration = TerminalConfiguration()
    ) {
        self.card = card
        self.reader = reader
        self.terminal = terminal
    }

    /// A sandbox reader's DUKPT state: the sandbox BDK and
    /// ``SandboxKeys/initialKeyID(derivationID:)``.
    public static func sandboxReader(derivationID: UInt32 = 1, counter: UInt32 = 1) throws(CardCryptoError)
        -> DUKPTReader
    {
        try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: derivationID),
            counter: counter)
    }

    /// Puts another card in the reader (the DUKPT state stays) and forgets any transaction.
    public mutating func insert(_ card: Card) {
        self.card = card
        session = nil
    }

    /// Abandons the transaction in progress (the cardholder or merchant cancelled).
    public mutating func cancel() { session = nil }

    /// Ends the transaction because the card failed.
    mutating func fail(_ error: CardError) -> KernelStep {
        session = nil
        return .failed(KernelFailure(error))
    }

    // MARK: - Steps

    /// Starts a transaction with the card presented as `transaction.entryMode`.
    public mutating func start(_ transaction: KernelTransaction) -> KernelStep {
        session = nil
        let surface = card.surface
        if terminal.appliesScenarios, SandboxScenario.forAmount(minor: transaction.amount) == .userCancelled {
            return .failed(.cancelled)
        }
        switch transaction.entryMode {
        case .magstripe, .magstripeFallback:
            return swipe(transaction)
        case .chip:
            guard surface.interfaces.contains(.chip) else { return .failed(.interfaceNotSupported) }
        case .contactless:
            guard surface.interfaces.contains(.contactless) else { return .failed(.interfaceNotSupported) }
        case .manual, .cardNotPresent:
            return .failed(.interfaceNotSupported)
        }
        let candidates: [SandboxApplication]
        do {
            candidates = try card.selectPaymentSystem().sorted { $0.priority < $1.priority }
        } catch {
            return .failed(KernelFailure(error))
        }
        guard !candidates.isEmpty else { return .failed(.interfaceNotSupported) }
        session = Session(transaction: transaction, phase: .selecting(candidates))
        if transaction.entryMode == .chip, candidates.count > 1 {
            return .selectApplication(candidates)
        }
        return selectApplication(at: 0)
    }

    /// Selects the application at `index` of the list that ``KernelStep/selectApplication(_:)``
    /// offered.
    public mutating func selectApplication(at index: Int) -> KernelStep {
        guard var session, case .selecting(let candidates) = session.phase, candidates.indices.contains(index)
        else { return .failed(.invalidState) }
        session.application = candidates[index]
        do {
            try card.selectApplication(candidates[index].aid)
            session.records = try card.readApplicationData(
                contactless: session.transaction.entryMode == .contactless)
        } catch {
            return fail(error)
        }
        session.set(.offlineDataAuthenticationNotPerformed)
        let (year, month) = session.transaction.yearMonth
        if session.records?.isExpired(atYear: year, month: month) ?? true { session.set(.expiredApplication) }
        self.session = session
        return cardholderVerification()
    }

    /// The PIN the cardholder entered, or `nil` when they bypassed PIN entry (OK with no
    /// digits), which falls back to a signature as the Heft seed's `EFT_PIN_INPUT` says: the
    /// TVR says the PIN was not entered, the CVR that it was bypassed, and the CVM results are
    /// a signature's.
    public mutating func enterPIN(_ pin: String?) -> KernelStep {
        guard var session, case .pin(let online) = session.phase else { return .failed(.invalidState) }
        let method: UInt8 = online ? 0x02 : 0x01
        guard let pin else {
            session.set(.pinNotEntered)
            session.set(.cardholderVerificationPerformed)
            session.cvmResults = [0x1E, 0x00, 0x00]
            session.cvm = .signature
            self.session = session
            return firstGenerateAC()
        }
        session.set(.cardholderVerificationPerformed)
        if online {
            session.set(.onlinePINEntered)
            session.onlinePIN = pin
            session.cvmResults = [method, 0x00, 0x00]
            session.cvm = .pin
            self.session = session
            return firstGenerateAC()
        }
        let verification: PINVerification
        do {
            verification = try card.verifyOfflinePIN(pin)
        } catch {
            return fail(error)
        }
        switch verification {
        case .correct:
            session.cvmResults = [method, 0x00, 0x02]
            session.cvm = .pin
        case .wrong(let left) where left > 0:
            self.session = session
            return .enterPIN(PINRequest(online: false, triesRemaining: left, afterWrongPIN: true))
        case .wrong, .blocked:
            session.set(.pinTryLimitExceeded)
            session.set(.cardholderVerificationFailed)
            session.cvmResults = [method, 0x00, 0x01]
            session.cvm = .failed
        }
        self.session = session
        return firstGenerateAC()
    }

    /// Hands the host's answer to the card: verifies the ARPC in tag 91 and the CSU's agreement
    /// with `hostApproved`, applies the CSU, and runs the second GENERATE AC. The card answers
    /// TC only when the host approved, the answer authenticated and the card does not decline
    /// at the second GENERATE AC; an approval without tag 91 does not authenticate.
    public mutating func complete(
        hostApproved: Bool, responseCode: String, issuerAuthenticationData: [UInt8]?
    )
        -> KernelStep
    {
        guard var session, case .online = session.phase, let authorization = session.authorization else {
            return .failed(.invalidState)
        }
        if responseCode == Self.unableToGoOnlineResponseCode, !hostApproved, issuerAuthenticationData == nil,
            !session.swiped
        {
            return completeUnableToGoOnline()
        }
        if session.swiped {
            let outcome = KernelOutcome(
                reason: hostApproved ? .approvedOnline : .declinedByIssuer, approved: hostApproved,
                cryptogramType: nil, cryptogram: nil, atc: nil, tvr: session.tvr, tsi: session.tsi,
                cvmResults: session.cvmResults,
                emvData: authorization.emvData
                    + ((try? TLV(0x8A, value: Array(responseCode.utf8.prefix(2))).encoded()) ?? []),
                authorization: authorization, hostApproved: hostApproved)
            self.session = nil
            return .completed(outcome)
        }
        var authenticated = false
        if let tag91 = issuerAuthenticationData {
            session.set(.issuerAuthenticationPerformed)
            // The card checks the ARPC; the terminal checks that the update it authenticates
            // says what the host said, and does not hand the card an update that disagrees.
            if CardStatusUpdate(issuerAuthenticationData: tag91)?.approved == hostApproved {
                do {
                    authenticated = try card.externalAuthenticate(tag91)
                } catch {
                    return fail(error)
                }
            }
        }
        if !authenticated, issuerAuthenticationData != nil || hostApproved {
            session.set(.issuerAuthenticationFailed)
        }
        let requested: CryptogramType = hostApproved && authenticated ? .tc : .aac
        var extra = [TLV(0x8A, value: Array(responseCode.utf8.prefix(2)))]
        if let issuerAuthenticationData { extra.append(TLV(0x91, value: issuerAuthenticationData)) }
        session.phase = .done
        self.session = session
        return finish(
            requested: requested, hostApproved: hostApproved, authenticated: authenticated,
            authorization: authorization, extra: extra)
    }
}
