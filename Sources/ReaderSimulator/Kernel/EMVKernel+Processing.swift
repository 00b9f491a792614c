import CardCrypto
import EMV
import MPOSCore
import SandboxCards

/// The kernel's processing steps: cardholder verification, the first GENERATE AC, sealing
/// card data under DUKPT, the second GENERATE AC, and the magstripe path.
extension EMVCardKernel {
    mutating func cardholderVerification() -> KernelStep {
        guard var session, let records = session.records else { return .failed(.invalidState) }
        let transaction = session.transaction
        var preference = records.cvm
        if transaction.entryMode == .contactless {
            if let limit = records.contactlessCVMLimit, transaction.amount <= limit {
                preference = .noCVM
            } else if preference == .offlinePIN {
                preference = .onlinePIN
            }
        }
        if terminal.appliesScenarios,
            SandboxScenario.forAmount(minor: transaction.amount) == .signatureRequested
        {
            preference = .signature
        }
        switch preference {
        case .noCVM:
            session.cvmResults = [0x1F, 0x00, 0x02]
            session.cvm = .notRequired
        case .signature:
            session.set(.cardholderVerificationPerformed)
            session.cvmResults = [0x1E, 0x00, 0x00]
            session.cvm = .signature
        case .onlinePIN, .offlinePIN:
            let online = preference == .onlinePIN
            guard terminal.supportsPIN else {
                session.set(.pinPadMissing)
                session.set(.cardholderVerificationFailed)
                session.cvmResults = [online ? 0x02 : 0x01, 0x00, 0x01]
                session.cvm = .failed
                self.session = session
                return firstGenerateAC()
            }
            var triesRemaining: Int?
            if !online {
                do {
                    triesRemaining = try card.pinTryCounter()
                } catch {
                    return fail(error)
                }
            }
            if triesRemaining == 0 {
                session.set(.cardholderVerificationPerformed)
                session.set(.pinTryLimitExceeded)
                session.set(.cardholderVerificationFailed)
                session.cvmResults = [0x01, 0x00, 0x01]
                session.cvm = .failed
                self.session = session
                return firstGenerateAC()
            }
            session.phase = .pin(online: online)
            self.session = session
            return .enterPIN(PINRequest(online: online, triesRemaining: triesRemaining, afterWrongPIN: false))
        }
        self.session = session
        return firstGenerateAC()
    }

    /// Terminal action analysis and the first GENERATE AC.
    mutating func firstGenerateAC() -> KernelStep {
        guard var session, let application = session.application, let records = session.records else {
            return .failed(.invalidState)
        }
        let transaction = session.transaction
        session.set(.cardRiskManagementPerformed)
        session.set(.terminalRiskManagementPerformed)
        if transaction.amount > terminal.floorLimit { session.set(.exceedsFloorLimit) }
        // Anything wrong but the ODA bit (the kernel does no ODA) makes the terminal go online.
        let clean = session.tvr[0] & 0x7F == 0 && session.tvr[1...].allSatisfy { $0 == 0 }
        let terminalAsksTC = clean && transaction.amount <= terminal.floorLimit

        session.values = [
            0x9F02: Self.bcd(transaction.amount, bytes: 6), 0x9F03: [0, 0, 0, 0, 0, 0],
            0x9F1A: Self.bcd(Int64(terminal.countryCode), bytes: 2),
            0x5F2A: Self.bcd(Int64(transaction.currency.numericCode), bytes: 2), 0x9A: transaction.dateBCD,
            0x9C: [transaction.transactionType], 0x9F37: transaction.unpredictableNumber,
            0x82: records.aip, 0x84: application.aid, 0x9F33: terminal.capabilities,
            0x9F35: [terminal.terminalType], 0x50: Array(application.label.utf8),
            0x9F39: [transaction.entryMode == .contactless ? 0x07 : 0x05],
        ]
        if let sequence = records.panSequenceNumberBCD { session.values[0x5F34] = [sequence] }
        if let preferredName = application.preferredName {
            session.values[0x9F12] = Array(preferredName.utf8)
        }
        let response: GenerateACResponse
        do {
            response = try generate(
                &session, requesting: terminalAsksTC ? .tc : .arqc, onlinePIN: session.onlinePIN)
        } catch {
            return fail(error)
        }
        session.atc = response.atc
        session.arqc = response.cryptogram
        let authorization: AuthorizationData
        do {
            authorization = try seal(
                session, records: records,
                emv: session.values.keys.sorted().map { TLV($0, value: session.values[$0]!) },
                aid: application.aidHex, label: application.label)
        } catch {
            self.session = nil
            return .failed(.cryptoFailure(error.kind.name))
        }
        session.authorization = authorization
        switch response.type {
        case .tc:
            session.phase = .done
            self.session = session
            return outcome(
                session, type: .tc, reason: .approvedOffline, hostApproved: false,
                authorization: authorization,
                extra: [])
        case .aac:
            session.phase = .done
            self.session = session
            return outcome(
                session, type: .aac, reason: .declinedByCard, hostApproved: false,
                authorization: authorization,
                extra: [])
        case .arqc:
            session.phase = .online
            self.session = session
            return .goOnline(authorization)
        }
    }

    /// Sends GENERATE AC with the session's values and the current TVR, TSI and CVM results,
    /// and records what the card answered: 9F26, 9F27, 9F36 and 9F10.
    mutating func generate(
        _ session: inout Session, requesting type: CryptogramType, onlinePIN: String? = nil, extra: [TLV] = []
    )
        throws(CardError) -> GenerateACResponse
    {
        session.values[0x95] = session.tvr
        session.values[0x9B] = session.tsi
        session.values[0x9F34] = session.cvmResults
        var values = session.values
        for object in extra { if let value = object.value { values[object.tag] = value } }
        var card = self.card
        let response = try card.generateAC(
            GenerateACCommand(requested: type, values: values, onlinePIN: onlinePIN))
        self.card = card
        session.values[0x9F26] = response.cryptogram
        session.values[0x9F27] = [response.type.rawValue]
        session.values[0x9F36] = [UInt8(response.atc >> 8), UInt8(truncatingIfNeeded: response.atc)]
        session.values[0x9F10] = response.issuerApplicationData
        return response
    }

    /// Seals the card data under the next DUKPT key and builds the authorization data.
    mutating func seal(_ session: Session, records: CardRecords, emv: [TLV], aid: String?, label: String?)
        throws(CardCryptoError)
        -> AuthorizationData
    {
        let (ksn, sealed) = try CardDataEnvelope.seal(records.plaintext.encoded(), reader: &reader)
        let emvData: [UInt8]
        do {
            emvData = try TLV.encode(emv)
        } catch {
            throw CardCryptoError(.invalidDataElementLength, "EMV data did not encode")
        }
        return AuthorizationData(
            emvData: emvData, encryptedCardData: sealed, ksn: ksn.bytes, maskedPAN: records.pan.masked,
            cardholderName: records.cardholderName, expiry: records.expiry,
            entryMode: session.transaction.entryMode,
            cvm: session.cvm, aid: aid, applicationLabel: label, scheme: records.scheme,
            signatureRequired: session.cvm == .signature)
    }

    /// The second GENERATE AC and the outcome: the card's answer decides whether the
    /// transaction is approved; the host's answer and the issuer authentication say why not.
    mutating func finish(
        requested: CryptogramType, hostApproved: Bool, authenticated: Bool, authorization: AuthorizationData,
        extra: [TLV]
    ) -> KernelStep {
        guard var session else { return .failed(.invalidState) }
        let response: GenerateACResponse
        do {
            response = try generate(&session, requesting: requested, extra: extra)
        } catch {
            return fail(error)
        }
        let approve = response.type == .tc
        let reason: KernelOutcome.Reason =
            approve
            ? .approvedOnline
            : !hostApproved
                ? .declinedByIssuer : authenticated ? .declinedByCard : .issuerAuthenticationFailed
        return outcome(
            session, type: approve ? .tc : .aac, reason: reason, hostApproved: hostApproved,
            authorization: authorization, extra: extra)
    }

    /// Ends the transaction with the card's last cryptogram.
    mutating func outcome(
        _ session: Session, type: CryptogramType, reason: KernelOutcome.Reason, hostApproved: Bool,
        authorization: AuthorizationData, extra: [TLV]
    ) -> KernelStep {
        let objects = session.values.keys.sorted().map { TLV($0, value: session.values[$0]!) } + extra
        let outcome = KernelOutcome(
            reason: reason, approved: type == .tc, cryptogramType: type, cryptogram: session.values[0x9F26],
            atc: session.atc, tvr: session.tvr,
            tsi: session.tsi, cvmResults: session.cvmResults, emvData: (try? TLV.encode(objects)) ?? [],
            authorization: authorization, hostApproved: hostApproved)
        self.session = nil
        return .completed(outcome)
    }

    /// A swipe: no cryptogram; the Track 2 goes into the sealed card data.
    mutating func swipe(_ transaction: KernelTransaction) -> KernelStep {
        let surface = card.surface
        guard surface.interfaces.contains(.magstripe), let stripe = surface.stripe else {
            return .failed(.interfaceNotSupported)
        }
        let chipCard = stripe.serviceCode.flatMap(ServiceCode.init)?.isChip ?? false
        if transaction.entryMode == .magstripe, chipCard, surface.interfaces.contains(.chip) {
            return .failed(.useChip)
        }
        if transaction.entryMode == .magstripeFallback, !surface.allowsFallbackSwipe {
            return .failed(.useChip)
        }
        var session = Session(transaction: transaction, phase: .online)
        session.swiped = true
        let signature =
            stripe.cvm != .noCVM
            || (terminal.appliesScenarios
                && SandboxScenario.forAmount(minor: transaction.amount) == .signatureRequested)
        session.cvm = signature ? .signature : .notRequired
        session.cvmResults = signature ? [0x1E, 0x00, 0x00] : [0x3F, 0x00, 0x00]
        if transaction.entryMode == .magstripeFallback { session.set(.iccDataMissing) }
        let emv: [TLV] = [
            TLV(0x9F02, value: Self.bcd(transaction.amount, bytes: 6)),
            TLV(0x9F03, value: [0, 0, 0, 0, 0, 0]),
            TLV(0x9F1A, value: Self.bcd(Int64(terminal.countryCode), bytes: 2)),
            TLV(0x95, value: session.tvr),
            TLV(0x5F2A, value: Self.bcd(Int64(transaction.currency.numericCode), bytes: 2)),
            TLV(0x9A, value: transaction.dateBCD), TLV(0x9C, value: [transaction.transactionType]),
            TLV(0x9F37, value: transaction.unpredictableNumber), TLV(0x9F34, value: session.cvmResults),
            TLV(0x9F33, value: terminal.capabilities), TLV(0x9F35, value: [terminal.terminalType]),
            TLV(0x9F39, value: [transaction.entryMode == .magstripeFallback ? 0x80 : 0x90]),
        ]
        do {
            let authorization = try seal(session, records: stripe, emv: emv, aid: nil, label: nil)
            session.authorization = authorization
            self.session = session
            return .goOnline(authorization)
        } catch {
            return .failed(.cryptoFailure(error.kind.name))
        }
    }

    /// `value` as `bytes` bytes of BCD (n format), left-padded with zeros.
    static func bcd(_ value: Int64, bytes: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bytes)
        var rest = max(0, value)
        for index in stride(from: bytes - 1, through: 0, by: -1) {
            out[index] = UInt8(rest % 10) | UInt8((rest / 10) % 10) << 4
            rest /= 100
        }
        return out
    }
}
