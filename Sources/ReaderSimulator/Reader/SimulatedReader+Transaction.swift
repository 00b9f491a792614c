import CardCrypto
import EMV
import Foundation
import MPOSCore
import ReaderLink
import SandboxCards

/// The transaction loop: from `startTransaction` through the EMV kernel to its outcome.
extension SimulatedReader {
    func begin(_ start: StartTransaction) -> ReaderMessage {
        guard transaction == nil else {
            return .error(.commandNotAllowed, detail: "a transaction is already in progress")
        }
        if let refusal = battery.refusal {
            return .error(refusal, detail: "battery at \(battery.percentage)%: charge the reader")
        }
        let currency: Currency?
        switch start.currency {
        case .numeric(let code): currency = Currency(numericCode: Int(code))
        case .alphabetic(let code): currency = Currency(code: code)
        }
        guard let currency else { return .error(.unsupportedCurrency, detail: "unknown currency") }
        guard start.amountMinorUnits > 0 else {
            return .error(.invalidData, detail: "the amount must be positive")
        }
        transactionID = start.transactionID
        bufferedInputs = []
        // Unstructured: the transaction runs on this actor after `startTransaction` is
        // acknowledged; `abandonTransaction()` cancels it.
        transaction = Task {
            self.holdEvents()
            await self.run(start, currency: currency)
            await self.releaseEvents()
        }
        return .ack
    }

    func run(_ start: StartTransaction, currency: Currency) async {
        let id = start.transactionID
        let scenario =
            configuration.appliesScenarios ? SandboxScenario.forAmount(minor: start.amountMinorUnits) : nil
        record(.info, "transaction \(id): \(start.kind.rawValue) \(start.amountMinorUnits) \(currency.code)")
        if configuration.declinesBeforeCardPrompt {
            return await finishFailed(id, .processingError, "declined before the card prompt")
        }
        if configuration.cardLeftInReader {
            // The Heft seed's EFT_WAITING_CARD_REMOVAL: the card is taken out, and the app starts again.
            await status(.waitingCardRemoval, "Remove card", cancelAllowed: false)
            configuration.cardLeftInReader = false
            await emit(.cardEvent(.removed))
            return await finishFailed(
                id, .waitingCardRemoval, "a card was left in the reader: start the payment again")
        }
        if configuration.confirmsAmount {
            await status(.amountValidation, "Confirm amount", cancelAllowed: true)
            if await pause() == .cancelled {
                return await finishFailed(id, .userCancelled, "cancelled at the amount confirmation")
            }
        }
        await status(.waitingCard, "Insert, tap or swipe card", cancelAllowed: true)
        if configuration.waitsForCard {
            switch await awaitInput(timeout: nil) {
            case .cancelled: return await finishFailed(id, .userCancelled, "cancelled")
            default: break
            }
        } else if await pause() == .cancelled {
            return await finishFailed(id, .userCancelled, "cancelled")
        }
        switch scenario {
        case .userCancelled:
            return await finishFailed(id, .userCancelled, "cancelled by the cardholder")
        case .timeout(let seconds):
            cancelAllowed = true
            switch await awaitInput(timeout: .seconds(seconds)) {
            case .cancelled: return await finishFailed(id, .userCancelled, "cancelled")
            // The Heft seed's EFT_INPUT_TIMEOUT (0x0011): no user action came in time.
            default: return await finishFailed(id, .inputTimeout, "no card was presented in time")
            }
        default: break
        }

        guard let reader = dukpt else {
            return await finishFailed(id, .processingError, "the reader's keys are unavailable")
        }
        let date = now()
        if let source = configuration.cardSource {
            let transport: any APDUTransport
            do {
                transport = try await source.connect()
            } catch {
                return await finishFailed(id, KernelFailure(error).statusCode, "no card: \(error.message)")
            }
            var kernel = EMVCardKernel(
                card: APDUCard(transport: transport), reader: reader, terminal: terminalConfiguration)
            await transact(
                &kernel, start, currency: currency, date: date, pin: source.pin, scenario: scenario)
            dukpt = kernel.reader
            return
        }
        guard let sandbox = SandboxCards.card(id: configuration.cardID) else {
            return await finishFailed(id, .invalidCard, "unknown card")
        }
        guard var card = cards[sandbox.id] ?? (try? SimulatedCard(card: sandbox)) else {
            return await finishFailed(id, .processingError, "the card's keys are unavailable")
        }
        card.alignATC(to: date)
        var kernel = EMVKernel(card: card, reader: reader, terminal: terminalConfiguration)
        await transact(&kernel, start, currency: currency, date: date, pin: sandbox.pin, scenario: scenario)
        cards[sandbox.id] = kernel.card
        dukpt = kernel.reader
    }

    /// From the card's insertion to the outcome: the kernel's steps, the prompts, the host.
    /// Keeps the reader's DUKPT state as it goes; the caller keeps the card's.
    func transact<Card: EMVCard>(
        _ kernel: inout EMVCardKernel<Card>, _ start: StartTransaction, currency: Currency, date: Date,
        pin cardPIN: String,
        scenario: SandboxScenario?
    ) async {
        let id = start.transactionID
        let entryMode = configuration.entryMode
        if !cardSourceReportsPresence { await emit(.cardEvent(cardEvent(for: entryMode))) }
        await status(.cardInserted, "Card read", cancelAllowed: true)
        var account: AccountType?
        if let chosen = configuration.accountSelection {
            await status(.accountTypeSelection, "Select account", cancelAllowed: true)
            if await pause() == .cancelled {
                return await finishFailed(id, .userCancelled, "cancelled at the account selection")
            }
            account = chosen
        }
        var amount = start.amountMinorUnits
        if start.offersTip {
            guard let tip = await askForTip(start) else {
                return await finishFailed(id, .userCancelled, "cancelled at the tip prompt")
            }
            amount += tip
        }
        var step = kernel.start(
            KernelTransaction(
                kind: start.kind, amount: amount, currency: currency, date: date, entryMode: entryMode))
        var pinVerified = false

        while true {
            switch step {
            case .selectApplication(let candidates):
                await status(.applicationSelection, "Select application", cancelAllowed: true)
                await emit(
                    .applicationSelectionRequest(
                        candidates.map {
                            ApplicationCandidate(
                                aid: $0.aid, label: $0.label, preferredName: $0.preferredName,
                                priority: $0.priority)
                        }))
                switch await awaitInput(timeout: configuration.signatureTimeout) {
                case .application(.chosen(let index)):
                    step = kernel.selectApplication(at: Int(index))
                case .cancelled, .application(.cancel):
                    kernel.cancel()
                    dukpt = kernel.reader
                    return await finishFailed(id, .userCancelled, "application selection cancelled")
                default:
                    kernel.cancel()
                    dukpt = kernel.reader
                    return await finishFailed(id, .inputTimeout, "no application was selected")
                }
            case .enterPIN(let request):
                // The POS app cannot cancel PIN entry (the seed's EFT_PIN_INPUT); the cardholder can.
                await status(
                    .pinInput, request.afterWrongPIN ? "Wrong PIN, try again" : "Enter PIN",
                    cancelAllowed: false)
                // OK with no digits bypasses the PIN (only where no wrong PIN is to be typed first).
                let bypass = configuration.pinEntry == .bypass && nextPIN == nil
                let pin = nextPIN ?? cardPIN
                for digit in bypass ? [] : Array(1...UInt8(clamping: pin.count)) {
                    await emit(
                        .pinEntryProgress(
                            PINEntryProgress(
                                digitsEntered: digit,
                                attemptsLeft: request.triesRemaining.map { UInt8(clamping: $0) })))
                }
                if await pause() == .cancelled {
                    kernel.cancel()
                    dukpt = kernel.reader
                    return await finishFailed(id, .userCancelled, "cancelled at PIN entry")
                }
                await status(
                    .pinInputCompleted, bypass ? "PIN bypassed" : "PIN entered", cancelAllowed: false)
                if nextPIN == cardPIN || nextPIN == nil { pinVerified = true }
                if request.afterWrongPIN == false, nextPIN != nil, nextPIN != cardPIN {
                    // A wrong PIN once, then the right one, as a person would retry.
                    nextPIN = nil
                }
                step = kernel.enterPIN(bypass ? nil : pin)
            case .goOnline(let authorization):
                cancelAllowed = false
                await status(.waitingHostSend, "Authorizing", cancelAllowed: false)
                dukpt = kernel.reader
                if case .linkError(let failure) = scenario, await linkFails(failure, before: true) {
                    dukpt = kernel.reader
                    return
                }
                await emit(
                    .authorizationRequest(
                        AuthorizationRequest(
                            transactionID: id, emvData: Self.adding(account, to: authorization.emvData),
                            encryptedCardData: authorization.encryptedCardData, ksn: authorization.ksn,
                            maskedPAN: authorization.maskedPAN, cardholderName: authorization.cardholderName,
                            expiry: authorization.expiry, entryMode: authorization.entryMode,
                            cvm: authorization.cvm,
                            applicationLabel: authorization.applicationLabel,
                            aid: authorization.aid.flatMap { try? Hex.decode($0) })))
                dukpt = kernel.reader
                guard case .host(let host) = await awaitInput(timeout: nil) else {
                    kernel.cancel()
                    dukpt = kernel.reader
                    return await finishFailed(id, .responseAuthTimeout, "no host response")
                }
                if case .linkError(let failure) = scenario, await linkFails(failure, before: false) {
                    dukpt = kernel.reader
                    return
                }
                await status(.waitingHostReceive, "Completing", cancelAllowed: false)
                step = kernel.complete(
                    hostApproved: host.approved, responseCode: host.authorizationResponseCode,
                    issuerAuthenticationData: host.issuerAuthenticationData.isEmpty
                        ? nil : host.issuerAuthenticationData)
            case .completed(let outcome):
                dukpt = kernel.reader
                dukpt = kernel.reader
                var approved = outcome.approved
                var cvm = outcome.authorization.cvm
                if approved, outcome.authorization.signatureRequired || scenario == .signatureRequested {
                    approved = await collectSignature(id)
                    cvm = .signature
                }
                let statusCode: ReaderStatusCode =
                    approved ? .success : (outcome.approved ? .invalidSignature : .cardCancelled)
                await finish(
                    TransactionOutcome(
                        transactionID: id, cryptogramType: approved ? .tc : .aac,
                        emvData: Self.adding(account, to: outcome.emvData),
                        status: statusCode, cvm: cvm, entryMode: outcome.authorization.entryMode,
                        pinVerified: pinVerified && (cvm == .pin || cvm == .pinAndSignature)))
                return
            case .failed(let failure):
                dukpt = kernel.reader
                return await finishFailed(id, failure.statusCode, failure.description)
            }
        }
    }

    /// `emvData` with the chosen account (5F57) at its end, as the terminal adds it.
    static func adding(_ account: AccountType?, to emvData: [UInt8]) -> [UInt8] {
        guard let account else { return emvData }
        return emvData + [0x5F, 0x57, 0x01] + account.tagValue
    }

    /// Shows the tip prompt (the seed's `EFT_TIP_INPUT`, "Waiting for gratuity"), takes the
    /// scripted ``TipChoice`` and reports it: the tip to add to the amount the card
    /// authorises, or nil when the cardholder (or the POS) cancelled.
    func askForTip(_ start: StartTransaction) async -> Int64? {
        await status(.tipInput, "Waiting for gratuity", cancelAllowed: true)
        if await pause() == .cancelled { return nil }
        switch configuration.tipChoice.resolve(for: start) {
        case .cancelled:
            return nil
        case .tip(let tip, let percentage, let note):
            if let note { record(.info, "transaction \(start.transactionID): \(note)") }
            await emit(
                .tipEntered(
                    TipEntry(
                        transactionID: start.transactionID, tipAmountMinorUnits: tip, percentage: percentage))
            )
            return tip
        }
    }

    /// Asks for the signature and waits for the merchant's verdict (or times out, cancelling).
    func collectSignature(_ id: String) async -> Bool {
        await status(.waitingSignature, "Signature required", cancelAllowed: false)
        if let verdict = pendingSignatureVerdict { return verdict }
        await emit(.signatureRequired(transactionID: id, signature: configuration.signaturePad))
        switch await awaitInput(timeout: configuration.signatureTimeout) {
        case .signature(let response): return response.accepted
        default:
            record(.info, "transaction \(id): no signature verdict in time")
            return false
        }
    }

    var terminalConfiguration: TerminalConfiguration {
        var terminal = TerminalConfiguration()
        terminal.appliesScenarios = configuration.appliesScenarios
        return terminal
    }

    func cardEvent(for entryMode: CardEntryMode) -> CardEvent {
        switch entryMode {
        case .contactless: .tapped
        case .magstripe, .magstripeFallback: .swiped
        default: .inserted
        }
    }

    func finishFailed(_ id: String, _ code: ReaderStatusCode, _ message: String) async {
        record(.info, "transaction \(id): \(message)")
        await status(code, message, cancelAllowed: false)
        await finish(
            TransactionOutcome(
                transactionID: id, cryptogramType: .aac, emvData: [], status: code, cvm: .notRequired,
                entryMode: configuration.entryMode, pinVerified: false))
    }

    func finish(_ outcome: TransactionOutcome) async {
        cancelAllowed = false
        record(
            .full,
            "transaction \(outcome.transactionID): \(outcome.status.description), \(outcome.cryptogramType), "
                + "\(outcome.entryMode), CVM \(outcome.cvm)")
        await emit(.transactionOutcome(outcome))
        if configuration.entryMode == .chip, outcome.status != .userCancelled, !cardSourceReportsPresence {
            await emit(.cardEvent(.removed))
        }
        completedTransactions += 1
        await report(batteryEvents: battery.recordTransaction())
        transaction = nil
        transactionID = nil
        bufferedInputs = []
    }

    func abandonTransaction() {
        holdingEvents = false
        heldEvents = []
        transaction?.cancel()
        transaction = nil
        transactionID = nil
        cancelAllowed = false
        resumeWaiter(with: .cancelled)
    }
}
