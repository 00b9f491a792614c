import MPOSCore
import Testing

@testable import ReaderLink

/// A pad signature of two strokes, one of them a single dot.
let samplePad = try? CardholderSignature(
    width: 320, height: 90, strokes: [[.init(x: 0, y: 89), .init(x: 160, y: 3), .init(x: 319, y: 45)], [.init(x: 7, y: 7)]])

/// One sample per message kind. The switch makes adding a case to `ReaderMessage` (and so to
/// `ReaderMessage.Kind`, whose `kind` switch is exhaustive) fail to compile until it has a sample.
func sample(_ kind: ReaderMessage.Kind) -> ReaderMessage {
    switch kind {
    case .ack: .ack
    case .error: .error(.invalidData, detail: "bad field")
    case .ping: .ping
    case .pong: .pong
    case .getDeviceInfo: .getDeviceInfo
    case .deviceInfo:
        .deviceInfo(
            DeviceInfo(
                serialNumber: "SIM-000123", manufacturer: "MPOSKit", model: "Sim 1", applicationName: "EFT",
                applicationVersion: "2.4.1", emvParameterVersion: "2026-11", publicKeyVersion: "7",
                battery: BatteryStatus(percentage: 87, isCharging: true, hasExternalPower: false, millivolts: 4083)))
    case .getBattery: .getBattery
    case .battery: .battery(BatteryStatus(percentage: 5, isCharging: false, hasExternalPower: true, millivolts: 3345))
    case .displayPrompt: .displayPrompt(text: "Insert card — ünïcødé ✓", status: .waitingCard)
    case .inputRequest: .inputRequest(InputRequest(prompt: "Tip?", kind: .amount))
    case .inputResponse: .inputResponse(.value("150"))
    case .showCart:
        .showCart(
            ReaderCart(
                lines: [.init(name: "Espresso — double", quantity: 2, unitAmount: 250), .init(name: "Cake", unitAmount: 0)],
                tax: 95, currency: "EUR"))
    case .collectInput:
        .collectInput(CustomerInputRequest(prompt: "Where did you hear of us?", kind: .choice, choices: ["Friend", "Web"], timeoutSeconds: 600))
    case .customerInput: .customerInput(samplePad.map { .signature($0) } ?? .skipped)
    case .startTransaction:
        .startTransaction(
            StartTransaction(
                transactionID: "TX-1", kind: .refund, amountMinorUnits: 12_345, currency: .numeric(978),
                tipAmounts: [100, 200, Int64.max], tipPercentages: [10, 15, 20], cardholderPresent: false,
                originalTransactionID: "TX-0"))
    case .cardEvent: .cardEvent(.tapped)
    case .applicationSelectionRequest:
        .applicationSelectionRequest([
            ApplicationCandidate(aid: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10], label: "MASTERCARD", priority: 1),
            ApplicationCandidate(
                aid: [0xA0, 0, 0, 0, 0x03, 0x10, 0x10], label: "VISA", preferredName: "Visa Debit",
                priority: 2),
        ])
    case .applicationSelectionResponse: .applicationSelectionResponse(.chosen(index: 1))
    case .pinEntryProgress: .pinEntryProgress(PINEntryProgress(digitsEntered: 3, attemptsLeft: 2))
    case .signatureRequired:
        .signatureRequired(transactionID: "TX-2", signature: samplePad)
    case .signatureResponse:
        .signatureResponse(
            SignatureResponse(transactionID: "TX-2", accepted: true, png: [0x89, 0x50, 0x4E, 0x47]))
    case .signatureVerdict: .signatureVerdict(SignatureVerdict(transactionID: "TX-2", accepted: false))
    case .authorizationRequest:
        .authorizationRequest(
            AuthorizationRequest(
                transactionID: "TX-3", emvData: [0x9F, 0x26, 0x02, 0x12, 0x34],
                encryptedCardData: [1, 2, 3, 4],
                ksn: [0xFF, 0xFF, 0x98, 0x76, 0x54, 0x32, 0x10, 0xE0, 0x00, 0x01],
                maskedPAN: "541333******4111",
                cardholderName: "TEST/CARD", expiry: "2812", entryMode: .chip, cvm: .pin,
                applicationLabel: "MC",
                aid: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]))
    case .hostResponse:
        .hostResponse(
            HostResponse(
                transactionID: "TX-3", approved: true, authorizationResponseCode: "00",
                authorizationCode: "A1B2C3",
                issuerAuthenticationData: [1, 2, 3, 4, 5, 6, 7, 8, 0x30, 0x30], issuerScripts: [0x72, 0x00]))
    case .transactionOutcome:
        .transactionOutcome(
            TransactionOutcome(
                transactionID: "TX-3", cryptogramType: .tc, emvData: [0x9F, 0x27, 0x01, 0x40],
                status: .success,
                cvm: .pinAndSignature, entryMode: .contactless, pinVerified: true))
    case .cancelRequest: .cancelRequest(transactionID: nil)
    case .cancelResponse: .cancelResponse(accepted: false, status: .commandNotAllowed)
    case .statusReport:
        .statusReport(
            StatusReport(status: .pinInput, message: "Enter PIN", cancelAllowed: true, transactionID: "TX-4"))
    case .tipEntered: .tipEntered(TipEntry(transactionID: "TX-5", tipAmountMinorUnits: 6_30, percentage: 15))
    case .setLogLevel: .setLogLevel(.debug)
    case .fetchLogs: .fetchLogs
    case .logs: .logs(["boot", "", "line 3"])
    case .resetLogs: .resetLogs
    case .enableScanner:
        .enableScanner(ScannerConfiguration(multiScan: true, buttonMode: false, timeoutSeconds: 30))
    case .disableScanner: .disableScanner
    case .scan: .scan(ScanEvent(barcode: "4006381333931", symbology: "EAN-13"))
    case .scannerDisabled: .scannerDisabled
    case .updateBegin:
        .updateBegin(UpdateBegin(slot: .firmware, size: 65_536, sha256: Array(0..<32), version: "3.0.0"))
    case .updateChunk: .updateChunk(offset: 4096, bytes: Array(repeating: 0xEE, count: 900))
    case .updateVerify: .updateVerify
    case .updateCommit: .updateCommit
    case .reboot: .reboot
    case .updateAck: .updateAck(UpdateAck(offset: 4996, status: .success))
    }
}

/// Variants that exercise the other branches of enum-valued fields.
let variants: [ReaderMessage] =
    [
        .inputResponse(.confirmed(true)), .inputResponse(.cancelled), .applicationSelectionResponse(.cancel),
        .customerInput(.yesNo(false)), .customerInput(.choice(index: 5)), .customerInput(.text("a@b.example")),
        .customerInput(.skipped), .customerInput(.timedOut), .showCart(ReaderCart(lines: [], currency: "EUR")),
        .collectInput(CustomerInputRequest(prompt: "E-mail for the receipt?", kind: .email)),
        .startTransaction(
            StartTransaction(
                transactionID: "", kind: .sale, amountMinorUnits: -1, currency: .alphabetic("EUR"))),
        .pinEntryProgress(PINEntryProgress(digitsEntered: 0, attemptsLeft: nil)),
        .cancelRequest(transactionID: "TX-9"),
        .statusReport(StatusReport(status: .sharedSecretInvalid, message: "", cancelAllowed: false)),
        .authorizationRequest(
            AuthorizationRequest(
                transactionID: "T", emvData: [], encryptedCardData: [], ksn: [], maskedPAN: "",
                expiry: "0000",
                entryMode: .magstripeFallback, cvm: .notRequired)),
        .hostResponse(HostResponse(transactionID: "T", approved: false, authorizationResponseCode: "05")),
        .updateBegin(UpdateBegin(slot: .configuration, size: 0, sha256: [], version: "")),
    ]
    + TransactionKind.allCases.map {
        .startTransaction(
            StartTransaction(transactionID: "K", kind: $0, amountMinorUnits: 1, currency: .numeric(826)))
    }
    + CardEntryMode.allCases.flatMap { mode in
        CardholderVerification.allCases.map { cvm in
            .transactionOutcome(
                TransactionOutcome(
                    transactionID: "O", cryptogramType: .aac, emvData: [], status: .userCancelled, cvm: cvm,
                    entryMode: mode,
                    pinVerified: false))
        }
    } + ReaderStatusCode.allCases.map { .error($0, detail: "") } + CardEvent.allCases.map { .cardEvent($0) }
    + ReaderLogLevel.allCases.map { .setLogLevel($0) }
    + InputKind.allCases.map { .inputRequest(InputRequest(prompt: "", kind: $0)) }

@Suite(.timeLimit(.minutes(2)))
struct MessageCodecTests {
    @Test(arguments: ReaderMessage.Kind.allCases)
    func everyKindRoundTrips(kind: ReaderMessage.Kind) throws {
        let message = sample(kind)
        #expect(message.kind == kind)
        let bytes = message.encoded()
        #expect(bytes.first == kind.rawValue)
        #expect(try ReaderMessage(decoding: bytes) == message)
    }

    @Test func variantsRoundTrip() throws {
        for message in variants { #expect(try ReaderMessage(decoding: message.encoded()) == message) }
    }

    @Test func everyTruncationAndTrailingByteThrowsMalformed() {
        for message in ReaderMessage.Kind.allCases.map(sample) + variants {
            let bytes = message.encoded()
            for length in 0..<bytes.count {
                #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: bytes.prefix(length)) }
            }
            #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: bytes + [0]) }
        }
    }

    @Test func rejectsUnknownTypesEnumsAndInvalidUTF8() {
        let known = Set(ReaderMessage.Kind.allCases.map(\.rawValue))
        for byte in UInt8.min...UInt8.max where !known.contains(byte) {
            #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: [byte]) }
        }
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: [0x31, 0x09]) }  // card event 9
        // status
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: [0x02, 0xBE, 0xEF, 0, 0]) }
        // UTF-8
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: [0x35, 0, 2, 0xC3, 0x28]) }
        #expect(throws: ReaderLinkError.self) { try ReaderMessage(decoding: [0x3B, 2]) }  // optional marker
        #expect(throws: ReaderLinkError.self) {
            try ReaderMessage(decoding: [0x61, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test func descriptionNamesTheKindOnly() {
        #expect("\(sample(.authorizationRequest))" == "ReaderMessage.authorizationRequest")
    }
}
