import MPOSCore

extension ReaderMessage {
    /// The message's bytes: type byte, then fields (big-endian integers; strings as UInt16
    /// length + UTF-8; byte strings as UInt32 length + bytes; optionals as 0/1 + value; lists
    /// as UInt16 count + elements).
    public func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u8(kind.rawValue)
        switch self {
        case .ack, .ping, .pong, .getDeviceInfo, .getBattery, .fetchLogs, .resetLogs, .disableScanner, .scannerDisabled,
            .updateVerify,
            .updateCommit, .reboot:
            break
        case .error(let status, let detail):
            w.u16(status.rawValue)
            w.string(detail)
        case .deviceInfo(let info):
            for field in [
                info.serialNumber, info.manufacturer, info.model, info.applicationName,
                info.applicationVersion,
                info.emvParameterVersion, info.publicKeyVersion,
            ] { w.string(field) }
            w.battery(info.battery)
            w.string(info.generalParameterVersion)
        case .battery(let battery):
            w.battery(battery)
        case .displayPrompt(let text, let status):
            w.string(text)
            w.u16(status.rawValue)
        case .inputRequest(let request):
            w.string(request.prompt)
            w.u8(request.kind.rawValue)
        case .inputResponse(let response):
            switch response {
            case .confirmed(let yes):
                w.u8(1)
                w.bool(yes)
            case .value(let value):
                w.u8(2)
                w.string(value)
            case .cancelled:
                w.u8(3)
            }
        case .showCart(let cart):
            w.array(cart.lines) { w, line in
                w.string(line.name)
                w.u16(line.quantity)
                w.i64(line.unitAmount)
            }
            w.i64(cart.tax)
            w.i64(cart.total)
            w.string(cart.currency)
        case .collectInput(let request):
            w.string(request.prompt)
            w.u8(request.kind.rawValue)
            w.array(request.choices) { $0.string($1) }
            w.u16(request.timeoutSeconds)
        case .customerInput(let input):
            switch input {
            case .yesNo(let yes):
                w.u8(1)
                w.bool(yes)
            case .choice(let index):
                w.u8(2)
                w.u8(index)
            case .text(let text):
                w.u8(3)
                w.string(text)
            case .signature(let signature):
                w.u8(4)
                w.signature(signature)
            case .skipped: w.u8(5)
            case .timedOut: w.u8(6)
            }
        case .startTransaction(let start):
            w.string(start.transactionID)
            w.u8(WireCodes.code(of: start.kind))
            w.i64(start.amountMinorUnits)
            switch start.currency {
            case .numeric(let code):
                w.u8(1)
                w.u16(code)
            case .alphabetic(let code):
                w.u8(2)
                w.string(code)
            }
            w.array(start.tipAmounts) { $0.i64($1) }
            w.array(start.tipPercentages) { $0.u8($1) }
            w.bool(start.cardholderPresent)
            w.optional(start.originalTransactionID) { $0.string($1) }
            // A trailing byte, written only when a custom tip is allowed: every other start keeps
            // the form readers that predate it read.
            if start.allowsCustomTip { w.bool(true) }
        case .cardEvent(let event):
            w.u8(event.rawValue)
        case .applicationSelectionRequest(let candidates):
            w.array(candidates) { w, candidate in
                w.data(candidate.aid)
                w.string(candidate.label)
                w.optional(candidate.preferredName) { $0.string($1) }
                w.u8(candidate.priority)
            }
        case .applicationSelectionResponse(let choice):
            switch choice {
            case .chosen(let index):
                w.u8(1)
                w.u8(index)
            case .cancel:
                w.u8(2)
            }
        case .pinEntryProgress(let progress):
            w.u8(progress.digitsEntered)
            w.optional(progress.attemptsLeft) { $0.u8($1) }
        case .signatureRequired(let transactionID, let signature):
            w.string(transactionID)
            w.optional(signature) { $0.signature($1) }
        case .signatureResponse(let response):
            w.string(response.transactionID)
            w.bool(response.accepted)
            w.data(response.png)
        case .signatureVerdict(let verdict):
            w.string(verdict.transactionID)
            w.bool(verdict.accepted)
        case .authorizationRequest(let request):
            w.string(request.transactionID)
            w.data(request.emvData)
            w.data(request.encryptedCardData)
            w.data(request.ksn)
            w.string(request.maskedPAN)
            w.optional(request.cardholderName) { $0.string($1) }
            w.string(request.expiry)
            w.u8(WireCodes.code(of: request.entryMode))
            w.u8(WireCodes.code(of: request.cvm))
            w.optional(request.applicationLabel) { $0.string($1) }
            w.optional(request.aid) { $0.data($1) }
        case .hostResponse(let response):
            w.string(response.transactionID)
            w.bool(response.approved)
            w.string(response.authorizationResponseCode)
            w.optional(response.authorizationCode) { $0.string($1) }
            w.data(response.issuerAuthenticationData)
            w.data(response.issuerScripts)
        case .transactionOutcome(let outcome):
            w.string(outcome.transactionID)
            w.u8(outcome.cryptogramType.rawValue)
            w.data(outcome.emvData)
            w.u16(outcome.status.rawValue)
            w.u8(WireCodes.code(of: outcome.cvm))
            w.u8(WireCodes.code(of: outcome.entryMode))
            w.bool(outcome.pinVerified)
        case .cancelRequest(let transactionID):
            w.optional(transactionID) { $0.string($1) }
        case .cancelResponse(let accepted, let status):
            w.bool(accepted)
            w.u16(status.rawValue)
        case .statusReport(let report):
            w.u16(report.status.rawValue)
            w.string(report.message)
            w.bool(report.cancelAllowed)
            w.optional(report.transactionID) { $0.string($1) }
        case .tipEntered(let entry):
            w.string(entry.transactionID)
            w.i64(entry.tipAmountMinorUnits)
            w.optional(entry.percentage) { $0.u8($1) }
        case .setLogLevel(let level):
            w.u8(level.rawValue)
        case .logs(let lines):
            w.array(lines) { $0.string($1) }
        case .enableScanner(let configuration):
            w.bool(configuration.multiScan)
            w.bool(configuration.buttonMode)
            w.u16(configuration.timeoutSeconds)
        case .scan(let event):
            w.string(event.barcode)
            w.string(event.symbology)
        case .updateBegin(let begin):
            w.u8(begin.slot.rawValue)
            w.u32(begin.size)
            w.data(begin.sha256)
            w.string(begin.version)
            w.data(begin.signature)
        case .updateChunk(let offset, let bytes):
            w.u32(offset)
            w.data(bytes)
        case .updateAck(let ack):
            w.u32(ack.offset)
            w.u16(ack.status.rawValue)
        }
        return w.bytes
    }

    /// Decodes a message. Throws `ReaderLinkError.malformed` for an unknown type byte,
    /// truncated or trailing bytes, an unknown enumeration value or invalid UTF-8; never traps.
    public init(decoding bytes: some Collection<UInt8>) throws(ReaderLinkError) {
        let array = Array(bytes)
        var r = ByteReader(array[...])
        let typeByte = try r.u8()
        guard let kind = Kind(rawValue: typeByte) else {
            throw .malformed(detail: "unknown message type 0x\(String(typeByte, radix: 16, uppercase: true))")
        }
        switch kind {
        case .ack: self = .ack
        case .error: self = .error(try r.status(), detail: try r.string())
        case .ping: self = .ping
        case .pong: self = .pong
        case .getDeviceInfo: self = .getDeviceInfo
        case .deviceInfo:
            self = .deviceInfo(
                DeviceInfo(
                    serialNumber: try r.string(), manufacturer: try r.string(), model: try r.string(),
                    applicationName: try r.string(), applicationVersion: try r.string(),
                    emvParameterVersion: try r.string(), publicKeyVersion: try r.string(),
                    battery: try r.battery(), generalParameterVersion: try r.string()))
        case .getBattery: self = .getBattery
        case .battery: self = .battery(try r.battery())
        case .displayPrompt: self = .displayPrompt(text: try r.string(), status: try r.status())
        case .inputRequest:
            self = .inputRequest(
                InputRequest(prompt: try r.string(), kind: try r.enumeration(InputKind.self)))
        case .inputResponse:
            switch try r.u8() {
            case 1: self = .inputResponse(.confirmed(try r.bool()))
            case 2: self = .inputResponse(.value(try r.string()))
            case 3: self = .inputResponse(.cancelled)
            case let other: throw .malformed(detail: "input response form \(other)")
            }
        case .startTransaction:
            let transactionID = try r.string()
            let transactionKind = try WireCodes.transactionKind(try r.u8())
            let amount = try r.i64()
            let currency: TransactionCurrency
            switch try r.u8() {
            case 1: currency = .numeric(try r.u16())
            case 2: currency = .alphabetic(try r.string())
            case let other: throw .malformed(detail: "currency form \(other)")
            }
            var start = StartTransaction(
                transactionID: transactionID, kind: transactionKind, amountMinorUnits: amount,
                currency: currency,
                tipAmounts: try r.array { r throws(ReaderLinkError) in try r.i64() },
                tipPercentages: try r.array { r throws(ReaderLinkError) in try r.u8() },
                cardholderPresent: try r.bool(),
                originalTransactionID: try r.optional { r throws(ReaderLinkError) in try r.string() })
            // The custom-tip flag is there only when true, so that each start has one encoding.
            if r.remaining > 0 {
                guard try r.bool() else { throw .malformed(detail: "a custom-tip flag, when present, is true") }
                start.allowsCustomTip = true
            }
            self = .startTransaction(start)
        case .cardEvent: self = .cardEvent(try r.enumeration(CardEvent.self))
        case .applicationSelectionRequest:
            self = .applicationSelectionRequest(
                try r.array { r throws(ReaderLinkError) in
                    ApplicationCandidate(
                        aid: try r.data(), label: try r.string(),
                        preferredName: try r.optional { r throws(ReaderLinkError) in try r.string() },
                        priority: try r.u8())
                })
        case .applicationSelectionResponse:
            switch try r.u8() {
            case 1: self = .applicationSelectionResponse(.chosen(index: try r.u8()))
            case 2: self = .applicationSelectionResponse(.cancel)
            case let other: throw .malformed(detail: "application choice form \(other)")
            }
        case .pinEntryProgress:
            self = .pinEntryProgress(
                PINEntryProgress(
                    digitsEntered: try r.u8(),
                    attemptsLeft: try r.optional { r throws(ReaderLinkError) in try r.u8() }))
        case .signatureRequired:
            self = .signatureRequired(
                transactionID: try r.string(),
                signature: try r.optional { r throws(ReaderLinkError) in try r.signature() })
        case .signatureResponse:
            self = .signatureResponse(
                SignatureResponse(transactionID: try r.string(), accepted: try r.bool(), png: try r.data()))
        case .signatureVerdict:
            self = .signatureVerdict(SignatureVerdict(transactionID: try r.string(), accepted: try r.bool()))
        case .authorizationRequest:
            self = .authorizationRequest(
                AuthorizationRequest(
                    transactionID: try r.string(), emvData: try r.data(), encryptedCardData: try r.data(),
                    ksn: try r.data(), maskedPAN: try r.string(),
                    cardholderName: try r.optional { r throws(ReaderLinkError) in try r.string() },
                    expiry: try r.string(), entryMode: try WireCodes.entryMode(try r.u8()),
                    cvm: try WireCodes.verification(try r.u8()),
                    applicationLabel: try r.optional { r throws(ReaderLinkError) in try r.string() },
                    aid: try r.optional { r throws(ReaderLinkError) in try r.data() }))
        case .hostResponse:
            self = .hostResponse(
                HostResponse(
                    transactionID: try r.string(), approved: try r.bool(),
                    authorizationResponseCode: try r.string(),
                    authorizationCode: try r.optional { r throws(ReaderLinkError) in try r.string() },
                    issuerAuthenticationData: try r.data(), issuerScripts: try r.data()))
        case .transactionOutcome:
            self = .transactionOutcome(
                TransactionOutcome(
                    transactionID: try r.string(), cryptogramType: try r.enumeration(CryptogramKind.self),
                    emvData: try r.data(), status: try r.status(),
                    cvm: try WireCodes.verification(try r.u8()),
                    entryMode: try WireCodes.entryMode(try r.u8()), pinVerified: try r.bool()))
        case .cancelRequest:
            self = .cancelRequest(
                transactionID: try r.optional { r throws(ReaderLinkError) in try r.string() })
        case .cancelResponse: self = .cancelResponse(accepted: try r.bool(), status: try r.status())
        case .statusReport:
            self = .statusReport(
                StatusReport(
                    status: try r.status(), message: try r.string(), cancelAllowed: try r.bool(),
                    transactionID: try r.optional { r throws(ReaderLinkError) in try r.string() }))
        case .tipEntered:
            self = .tipEntered(
                TipEntry(
                    transactionID: try r.string(), tipAmountMinorUnits: try r.i64(),
                    percentage: try r.optional { r throws(ReaderLinkError) in try r.u8() }))
        case .showCart:
            let lines = try r.array { r throws(ReaderLinkError) in
                ReaderCart.Line(name: try r.string(), quantity: try r.u16(), unitAmount: try r.i64())
            }
            self = .showCart(ReaderCart(lines: lines, tax: try r.i64(), total: try r.i64(), currency: try r.string()))
        case .collectInput:
            self = .collectInput(
                CustomerInputRequest(
                    prompt: try r.string(), kind: try r.enumeration(CustomerInputRequest.Kind.self),
                    choices: try r.array { r throws(ReaderLinkError) in try r.string() }, timeoutSeconds: try r.u16()))
        case .customerInput:
            switch try r.u8() {
            case 1: self = .customerInput(.yesNo(try r.bool()))
            case 2: self = .customerInput(.choice(index: try r.u8()))
            case 3: self = .customerInput(.text(try r.string()))
            case 4: self = .customerInput(.signature(try r.signature()))
            case 5: self = .customerInput(.skipped)
            case 6: self = .customerInput(.timedOut)
            case let other: throw .malformed(detail: "customer input form \(other)")
            }
        case .setLogLevel: self = .setLogLevel(try r.enumeration(ReaderLogLevel.self))
        case .fetchLogs: self = .fetchLogs
        case .logs: self = .logs(try r.array { r throws(ReaderLinkError) in try r.string() })
        case .resetLogs: self = .resetLogs
        case .enableScanner:
            self = .enableScanner(
                ScannerConfiguration(
                    multiScan: try r.bool(), buttonMode: try r.bool(), timeoutSeconds: try r.u16()))
        case .disableScanner: self = .disableScanner
        case .scannerDisabled: self = .scannerDisabled
        case .scan: self = .scan(ScanEvent(barcode: try r.string(), symbology: try r.string()))
        case .updateBegin:
            self = .updateBegin(
                UpdateBegin(
                    slot: try r.enumeration(UpdateSlot.self), size: try r.u32(), sha256: try r.data(),
                    version: try r.string(), signature: try r.data()))
        case .updateChunk: self = .updateChunk(offset: try r.u32(), bytes: try r.data())
        case .updateVerify: self = .updateVerify
        case .updateCommit: self = .updateCommit
        case .reboot: self = .reboot
        case .updateAck: self = .updateAck(UpdateAck(offset: try r.u32(), status: try r.status()))
        }
        try r.finish()
    }
}
