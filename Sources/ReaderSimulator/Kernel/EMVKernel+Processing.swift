import CardCrypto
import EMV
import MPOSCore
import SandboxCards

/// The kernel's processing steps: cardholder verification, the first GENERATE AC, sealing
/// card data under DUKPT, the second GENERATE AC, and the magstripe path.
extension EMVKernel {
    mutating func cardholderVerification() -> KernelStep {
        guard var session else { return .failed(.invalidState) }
        let sandbox = card.card
        let transaction = session.transaction
        var preference = sandbox.cvm
        if transaction.entryMode == .contactless {
            if let limit = sandbox.behaviours.contactlessCVMLimit, transaction.amount <= limit {
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
            if !online, card.pinTriesRemaining == 0 {
                session.set(.cardholderVerificationPerformed)
                session.set(.pinTryLimitExceeded)
                session.set(.cardholderVerificationFailed)
                session.cvr.pinTryLimitExceeded = true
                session.cvr.pinTriesRemaining = 0
                session.cvmResults = [0x01, 0x00, 0x01]
                session.cvm = .failed
                self.session = session
                return firstGenerateAC()
            }
            session.phase = .pin(online: online)
            self.session = session
            return .enterPIN(
                PINRequest(
                    online: online, triesRemaining: online ? nil : card.pinTriesRemaining,
                    afterWrongPIN: false))
        }
        self.session = session
        return firstGenerateAC()
    }

    /// Terminal action analysis and the first GENERATE AC.
    mutating func firstGenerateAC() -> KernelStep {
        guard var session, let application = session.application else { return .failed(.invalidState) }
        let transaction = session.transaction
        session.set(.cardRiskManagementPerformed)
        session.set(.terminalRiskManagementPerformed)
        if transaction.amount > terminal.floorLimit { session.set(.exceedsFloorLimit) }
        // Anything wrong but the ODA bit (the simulator does no ODA) makes the terminal go online.
        let clean = session.tvr[0] & 0x7F == 0 && session.tvr[1...].allSatisfy { $0 == 0 }
        let terminalAsksTC = clean && transaction.amount <= terminal.floorLimit
        let cardGivesTC = terminalAsksTC && card.card.behaviours.approvesOffline
        session.cvr.firstGenerateAC = cardGivesTC ? .tc : .arqc
        session.cvr.lastIssuerAuthenticationFailed = card.lastIssuerAuthenticationFailed
        if !session.cvr.offlinePINPerformed {
            session.cvr.pinTriesRemaining = UInt8(max(0, card.pinTriesRemaining))
        }
        session.atc = card.nextATC()

        let sandbox = card.card
        session.values = [
            0x9F02: Self.bcd(transaction.amount, bytes: 6), 0x9F03: [0, 0, 0, 0, 0, 0],
            0x9F1A: Self.bcd(Int64(terminal.countryCode), bytes: 2),
            0x5F2A: Self.bcd(Int64(transaction.currency.numericCode), bytes: 2), 0x9A: transaction.dateBCD,
            0x9C: [transaction.transactionType], 0x9F37: transaction.unpredictableNumber,
            0x82: transaction.entryMode == .contactless ? [0x1C, 0x80] : [0x1C, 0x00],
            0x9F36: [UInt8(session.atc >> 8), UInt8(truncatingIfNeeded: session.atc)],
            0x84: application.aid, 0x9F33: terminal.capabilities, 0x9F35: [terminal.terminalType],
            0x5F34: [sandbox.panSequenceNumberBCD], 0x50: Array(application.label.utf8),
            0x9F39: [transaction.entryMode == .contactless ? 0x07 : 0x05],
        ]
        if let preferredName = application.preferredName { session.values[0x9F12] = Array(preferredName.utf8) }
        let cryptogram: [UInt8]
        do {
            cryptogram = try generate(&session)
        } catch {
            self.session = nil
            return .failed(.cryptoFailure(error.kind.name))
        }
        session.values[0x9F27] = [cardGivesTC ? CryptogramType.tc.rawValue : CryptogramType.arqc.rawValue]
        session.arqc = cryptogram
        let authorization: AuthorizationData
        do {
            authorization = try seal(
                session, emv: session.values.keys.sorted().map { TLV($0, value: session.values[$0]!) },
                aid: application.aidHex, label: application.label)
        } catch {
            self.session = nil
            return .failed(.cryptoFailure(error.kind.name))
        }
        session.authorization = authorization
        if cardGivesTC {
            session.phase = .done
            self.session = session
            return finish(
                type: .tc, reason: .approvedOffline, hostApproved: false, authorization: authorization,
                extra: [])
        }
        session.phase = .online
        self.session = session
        return .goOnline(authorization)
    }

    /// Computes the cryptogram over the session's values with the current TVR and CVR, and
    /// records 95, 9B, 9F34, 9F10 and 9F26.
    func generate(_ session: inout Session) throws(CardCryptoError) -> [UInt8] {
        session.values[0x95] = session.tvr
        session.values[0x9B] = session.tsi
        session.values[0x9F34] = session.cvmResults
        session.values[0x9F10] = session.cvr.issuerApplicationData
        let input = try CryptogramInput(values: session.values)
        let cryptogram = try generateCryptogram(input: input, sessionKey: card.sessionKey(atc: session.atc))
        session.values[0x9F26] = cryptogram
        return cryptogram
    }

    /// Seals the card data under the next DUKPT key and builds the authorization data.
    mutating func seal(_ session: Session, emv: [TLV], aid: String?, label: String?)
        throws(CardCryptoError)
        -> AuthorizationData
    {
        let sandbox = card.card
        let plaintext = CardDataPlaintext(card: sandbox)
        let (ksn, sealed) = try CardDataEnvelope.seal(plaintext.encoded(), reader: &reader)
        let emvData: [UInt8]
        do {
            emvData = try TLV.encode(emv)
        } catch {
            throw CardCryptoError(.invalidDataElementLength, "EMV data did not encode")
        }
        return AuthorizationData(
            emvData: emvData, encryptedCardData: sealed, ksn: ksn.bytes, maskedPAN: sandbox.pan.masked,
            cardholderName: sandbox.cardholderName, expiry: sandbox.expiry,
            entryMode: session.transaction.entryMode,
            cvm: session.cvm, aid: aid, applicationLabel: label, scheme: sandbox.scheme,
            signatureRequired: session.cvm == .signature)
    }

    /// The final cryptogram (for a second GENERATE AC) and the outcome.
    mutating func finish(
        type: CryptogramType, reason: KernelOutcome.Reason, hostApproved: Bool,
        authorization: AuthorizationData,
        extra: [TLV]
    ) -> KernelStep {
        guard var session else { return .failed(.invalidState) }
        var cryptogram = session.arqc
        if reason != .approvedOffline {
            do {
                cryptogram = try generate(&session)
            } catch {
                self.session = nil
                return .failed(.cryptoFailure(error.kind.name))
            }
        }
        session.values[0x9F27] = [type.rawValue]
        let objects = session.values.keys.sorted().map { TLV($0, value: session.values[$0]!) } + extra
        let outcome = KernelOutcome(
            reason: reason, approved: type == .tc, cryptogramType: type, cryptogram: cryptogram,
            atc: session.atc, tvr: session.tvr,
            tsi: session.tsi, cvmResults: session.cvmResults, emvData: (try? TLV.encode(objects)) ?? [],
            authorization: authorization, hostApproved: hostApproved)
        self.session = nil
        return .completed(outcome)
    }

    /// A swipe: no cryptogram; the Track 2 goes into the sealed card data.
    mutating func swipe(_ transaction: KernelTransaction) -> KernelStep {
        let sandbox = card.card
        guard sandbox.interfaces.contains(.magstripe) else { return .failed(.interfaceNotSupported) }
        let chipCard = ServiceCode(sandbox.serviceCode)?.isChip ?? false
        if transaction.entryMode == .magstripe, chipCard, sandbox.interfaces.contains(.chip) {
            return .failed(.useChip)
        }
        if transaction.entryMode == .magstripeFallback, !sandbox.behaviours.magstripeFallback {
            return .failed(.useChip)
        }
        var session = Session(transaction: transaction, phase: .online)
        session.swiped = true
        let signature =
            sandbox.cvm != .noCVM
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
            let authorization = try seal(session, emv: emv, aid: nil, label: nil)
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
