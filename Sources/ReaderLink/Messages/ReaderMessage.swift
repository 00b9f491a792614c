import MPOSCore

/// Every message SDK and reader exchange, requests, responses and events alike. The wire form
/// is one type byte (``Kind``) followed by the fields; see docs/reader-protocol.md.
public enum ReaderMessage: Sendable, Hashable {
    // Link
    /// Acknowledges a request that has no other answer.
    case ack
    /// An error answer: the reader's status and a detail for the developer.
    case error(ReaderStatusCode, detail: String)
    /// Keep-alive probe; answered with ``pong``.
    case ping
    /// Keep-alive answer.
    case pong

    // Device
    /// Asks for ``DeviceInfo``.
    case getDeviceInfo
    /// The reader's description.
    case deviceInfo(DeviceInfo)
    /// Asks for the battery state.
    case getBattery
    /// The battery state.
    case battery(BatteryStatus)

    // Display and input
    /// Shows a text on the reader, with the status it reflects.
    case displayPrompt(text: String, status: ReaderStatusCode)
    /// Asks for input.
    case inputRequest(InputRequest)
    /// Answers an input request.
    case inputResponse(InputResponse)
    /// Shows the cart on the reader's screen (an empty cart clears it); answered with `ack`.
    case showCart(ReaderCart)
    /// Asks the customer a question on the reader; answered with `customerInput`.
    case collectInput(CustomerInputRequest)
    /// The customer's answer.
    case customerInput(CustomerInput)

    // Transactions
    /// Starts a transaction; answered with ``ack`` and followed by events.
    case startTransaction(StartTransaction)
    /// A card was inserted, removed, swiped or tapped.
    case cardEvent(CardEvent)
    /// The card offers several applications; answered with ``applicationSelectionResponse``.
    case applicationSelectionRequest([ApplicationCandidate])
    /// The chosen application.
    case applicationSelectionResponse(ApplicationChoice)
    /// PIN entry progress (digit count only).
    case pinEntryProgress(PINEntryProgress)
    /// The transaction needs a signature; a reader with a pad sends what the cardholder drew.
    case signatureRequired(transactionID: String, signature: CardholderSignature? = nil)
    /// The cardholder's signature.
    case signatureResponse(SignatureResponse)
    /// The merchant's verdict on the signature.
    case signatureVerdict(SignatureVerdict)
    /// The reader asks for online authorization.
    case authorizationRequest(AuthorizationRequest)
    /// The host's answer, completing the transaction on the card.
    case hostResponse(HostResponse)
    /// How the transaction ended.
    case transactionOutcome(TransactionOutcome)
    /// Asks to cancel the current transaction (or the given one).
    case cancelRequest(transactionID: String?)
    /// Whether the cancel was honoured; refused unless the last status allowed it.
    case cancelResponse(accepted: Bool, status: ReaderStatusCode)
    /// A status report.
    case statusReport(StatusReport)
    /// The tip the cardholder chose at the reader's tip prompt; sent before the authorization
    /// request of a transaction started with tip options.
    case tipEntered(TipEntry)

    // Logs
    /// Sets the reader's log level.
    case setLogLevel(ReaderLogLevel)
    /// Asks for the reader's log.
    case fetchLogs
    /// The reader's log lines. Never contains card data.
    case logs([String])
    /// Clears the reader's log.
    case resetLogs

    // Scanner
    /// Turns the barcode scanner on.
    case enableScanner(ScannerConfiguration)
    /// Turns the barcode scanner off.
    case disableScanner
    /// A code was scanned.
    case scan(ScanEvent)
    /// The scanner turned off: disabled, timed out, or done after its single scan (Handpoint's
    /// `responseScannerDisabled`).
    case scannerDisabled

    // Updates
    /// Starts an image transfer.
    case updateBegin(UpdateBegin)
    /// One piece of the image, at `offset`.
    case updateChunk(offset: UInt32, bytes: [UInt8])
    /// Checks the received image against its size and SHA-256.
    case updateVerify
    /// Makes the verified image the active one (after the next reboot).
    case updateCommit
    /// Restarts the reader.
    case reboot
    /// Answers update steps.
    case updateAck(UpdateAck)

    /// The message's type byte on the wire.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        case ack = 0x01, error = 0x02, ping = 0x03, pong = 0x04
        case getDeviceInfo = 0x10, deviceInfo = 0x11, getBattery = 0x12, battery = 0x13
        case displayPrompt = 0x20, inputRequest = 0x21, inputResponse = 0x22
        case showCart = 0x23, collectInput = 0x24, customerInput = 0x25
        case startTransaction = 0x30, cardEvent = 0x31, applicationSelectionRequest = 0x32
        case applicationSelectionResponse = 0x33, pinEntryProgress = 0x34, signatureRequired = 0x35
        case signatureResponse = 0x36, signatureVerdict = 0x37, authorizationRequest = 0x38
        case hostResponse = 0x39, transactionOutcome = 0x3A, cancelRequest = 0x3B, cancelResponse = 0x3C
        case statusReport = 0x3D, tipEntered = 0x3E
        case setLogLevel = 0x40, fetchLogs = 0x41, logs = 0x42, resetLogs = 0x43
        case enableScanner = 0x50, disableScanner = 0x51, scan = 0x52, scannerDisabled = 0x53
        case updateBegin = 0x60, updateChunk = 0x61, updateVerify = 0x62, updateCommit = 0x63
        case reboot = 0x64, updateAck = 0x65
    }

    /// The message's kind.
    public var kind: Kind {
        switch self {
        case .ack: .ack
        case .error: .error
        case .ping: .ping
        case .pong: .pong
        case .getDeviceInfo: .getDeviceInfo
        case .deviceInfo: .deviceInfo
        case .getBattery: .getBattery
        case .battery: .battery
        case .displayPrompt: .displayPrompt
        case .inputRequest: .inputRequest
        case .inputResponse: .inputResponse
        case .showCart: .showCart
        case .collectInput: .collectInput
        case .customerInput: .customerInput
        case .startTransaction: .startTransaction
        case .cardEvent: .cardEvent
        case .applicationSelectionRequest: .applicationSelectionRequest
        case .applicationSelectionResponse: .applicationSelectionResponse
        case .pinEntryProgress: .pinEntryProgress
        case .signatureRequired: .signatureRequired
        case .signatureResponse: .signatureResponse
        case .signatureVerdict: .signatureVerdict
        case .authorizationRequest: .authorizationRequest
        case .hostResponse: .hostResponse
        case .transactionOutcome: .transactionOutcome
        case .cancelRequest: .cancelRequest
        case .cancelResponse: .cancelResponse
        case .statusReport: .statusReport
        case .tipEntered: .tipEntered
        case .setLogLevel: .setLogLevel
        case .fetchLogs: .fetchLogs
        case .logs: .logs
        case .resetLogs: .resetLogs
        case .enableScanner: .enableScanner
        case .disableScanner: .disableScanner
        case .scan: .scan
        case .scannerDisabled: .scannerDisabled
        case .updateBegin: .updateBegin
        case .updateChunk: .updateChunk
        case .updateVerify: .updateVerify
        case .updateCommit: .updateCommit
        case .reboot: .reboot
        case .updateAck: .updateAck
        }
    }
}

extension ReaderMessage: CustomStringConvertible {
    /// The kind only: a message may carry card-related data, which must not reach a log.
    public var description: String { "ReaderMessage.\(kind)" }
}
