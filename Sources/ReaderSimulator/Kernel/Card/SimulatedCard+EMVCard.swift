import CardCrypto
import EMV
import SandboxCards

/// The simulated chip's answers to the kernel's commands, decided as the sandbox card decides:
/// its behaviours (offline approval, declining at the second GENERATE AC, its default action
/// when the terminal cannot go online) and its CVR are the card's, not the terminal's.
extension SimulatedCard: EMVCard {
    /// The card's interfaces and, when it has one, its stripe.
    public var surface: CardSurface {
        CardSurface(
            interfaces: card.interfaces,
            stripe: card.interfaces.contains(.magstripe) ? CardRecords(card: card) : nil,
            allowsFallbackSwipe: card.behaviours.magstripeFallback)
    }

    /// The catalog's applications; a chip that falls back to the stripe is mute, a blocked one
    /// refuses.
    public mutating func selectPaymentSystem() throws(CardError) -> [SandboxApplication] {
        transaction = nil
        if card.behaviours.magstripeFallback { throw CardError(.mute, "the chip does not answer") }
        if isApplicationBlocked { throw CardError(.blocked, "the application is blocked") }
        return card.applications
    }

    /// Starts the card's transaction.
    public mutating func selectApplication(_ aid: [UInt8]) throws(CardError) {
        guard card.applications.contains(where: { $0.aid == aid }) else {
            throw CardError(.unexpectedAnswer, "SELECT of an application the card does not hold")
        }
        if isApplicationBlocked { throw CardError(.blocked, "the application is blocked") }
        transaction = CardTransaction()
    }

    /// The catalog card's records.
    public mutating func readApplicationData(contactless: Bool) throws(CardError) -> CardRecords {
        guard transaction != nil else { throw CardError(.unexpectedAnswer, "no application selected") }
        let records = CardRecords(card: card, contactless: contactless)
        transaction?.aip = records.aip
        return records
    }

    /// The PIN try counter.
    public mutating func pinTryCounter() throws(CardError) -> Int? { pinTriesRemaining }

    /// The first GENERATE AC (TC when the terminal asks for one and the card approves offline,
    /// else ARQC or the AAC asked for) or the second (TC only when asked for and the card agrees;
    /// with 8A `Z3` the card's default action decides).
    public mutating func generateAC(_ command: GenerateACCommand) throws(CardError) -> GenerateACResponse {
        guard var state = transaction, !state.completed else {
            throw CardError(.unexpectedAnswer, "GENERATE AC out of sequence")
        }
        let behaviours = card.behaviours
        let type: CryptogramType
        var cvr: CardVerificationResults
        if let first = state.cvr, let atc = state.atc {
            // The second GENERATE AC.
            let unableToGoOnline = command.values[0x8A] == Array(EMVKernel.unableToGoOnlineResponseCode.utf8)
            let declines =
                behaviours.declinesAtSecondGenerateAC
                || (unableToGoOnline && (behaviours.declinesWhenUnableToGoOnline || behaviours.blocked))
            type = command.requested == .tc && !declines ? .tc : .aac
            if !unableToGoOnline { lastIssuerAuthenticationFailed = !state.issuerAuthenticated }
            cvr = first
            cvr.secondGenerateAC = type == .tc ? .tc : .aac
            state.completed = true
            return try cryptogram(type: type, atc: atc, cvr: cvr, command: command, state: &state)
        }
        switch command.requested {
        case .tc: type = behaviours.approvesOffline ? .tc : .arqc
        case .arqc: type = .arqc
        case .aac: type = .aac
        }
        cvr = CardVerificationResults(firstGenerateAC: type == .tc ? .tc : type == .arqc ? .arqc : .aac)
        cvr.lastIssuerAuthenticationFailed = lastIssuerAuthenticationFailed
        cvr.pinTriesRemaining = UInt8(max(0, min(15, pinTriesRemaining)))
        switch state.lastVerification {
        case .correct?:
            cvr.offlinePINPerformed = true
        case .wrong(let left)?:
            cvr.offlinePINPerformed = true
            cvr.offlinePINFailed = left == 0
            cvr.pinTryLimitExceeded = left == 0
        case .blocked?:
            cvr.offlinePINPerformed = true
            cvr.offlinePINFailed = true
            cvr.pinTryLimitExceeded = true
        case nil:
            cvr.pinTryLimitExceeded = pinTriesRemaining == 0 && card.cvm == .offlinePIN
        }
        let tvr = command.values[0x95] ?? []
        cvr.pinBypassed = tvr.count > 2 && tvr[2] & 0x08 != 0
        if let pin = command.onlinePIN { cvr.onlinePINMismatch = pin != card.pin }
        let atc = nextATC()
        state.atc = atc
        state.cvr = cvr
        let response = try cryptogram(type: type, atc: atc, cvr: cvr, command: command, state: &state)
        state.firstCryptogram = response.cryptogram
        transaction = state
        return response
    }

    /// Verifies the ARPC of tag 91 against the first cryptogram and applies the card status
    /// update it authenticates.
    public mutating func externalAuthenticate(_ issuerAuthenticationData: [UInt8]) throws(CardError) -> Bool {
        guard var state = transaction, let atc = state.atc, !state.completed else {
            throw CardError(.unexpectedAnswer, "EXTERNAL AUTHENTICATE out of sequence")
        }
        let key = try? sessionKey(atc: atc)
        let authenticated =
            key.map {
                ARPC.verify(
                    issuerAuthenticationData: issuerAuthenticationData, arqc: state.firstCryptogram,
                    sessionKey: $0)
            } ?? false
        state.issuerAuthenticated = authenticated
        transaction = state
        if authenticated, let update = CardStatusUpdate(issuerAuthenticationData: issuerAuthenticationData) {
            if update.blockApplication { isApplicationBlocked = true }
            if update.resetPINTryCounter { pinTriesRemaining = card.pinTryLimit }
        }
        return authenticated
    }

    private mutating func cryptogram(
        type: CryptogramType, atc: UInt16, cvr: CardVerificationResults, command: GenerateACCommand,
        state: inout CardTransaction
    ) throws(CardError) -> GenerateACResponse {
        var values = command.values
        values[0x82] = state.aip
        values[0x9F36] = [UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)]
        values[0x9F10] = cvr.issuerApplicationData
        do {
            let input = try CryptogramInput(values: values)
            let mac = try generateCryptogram(input: input, sessionKey: sessionKey(atc: atc))
            transaction = state
            return GenerateACResponse(
                type: type, atc: atc, cryptogram: mac, issuerApplicationData: cvr.issuerApplicationData)
        } catch {
            throw CardError(.unexpectedAnswer, "GENERATE AC: \(error.kind.name)")
        }
    }
}
