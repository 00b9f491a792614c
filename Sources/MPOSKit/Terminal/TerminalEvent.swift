import GatewayAPI
import MPOSCore
import ReaderLink

/// Something the app may show or react to.
public enum TerminalEvent: Sendable, Hashable {
    /// A reader connected (with its description) or disconnected.
    case readerConnection(connected: Bool, info: DeviceInfo?)
    /// The terminal is opening and pairing a link to a reader: attempt 0 is a connect the app
    /// called; 1, 2 … are the attempts of a reconnection after the link dropped. A
    /// ``readerConnection(connected:info:)`` follows when it connects or gives up
    /// (``ReaderConnectionState/connecting`` until then).
    case readerConnecting(attempt: Int)
    /// The reader's status, with the prompt it shows and whether cancel is allowed now.
    case readerStatus(status: ReaderStatusCode, message: String, cancelAllowed: Bool)
    /// A card was inserted, removed, swiped or tapped.
    case card(CardEvent)
    /// The cardholder is typing the PIN (digit count only).
    case pinEntry(digits: Int)
    /// The cardholder must choose an application.
    case applicationSelection([ApplicationCandidate])
    /// The merchant must check the cardholder's signature on the merchant copy it carries.
    case signatureRequired(SignatureRequest)
    /// The gateway is being asked.
    case authorizing
    /// The gateway's answer was lost; the terminal is looking the attempt up.
    case recovering
    /// An approval is being reversed (the card or the reader did not complete it).
    case reversing
    /// An operation finished.
    case completed(PaymentStatus)
    /// A scan found a reader (each reader once per ``CardReaderLink/discover(scanners:scanTime:)``).
    case readerDiscovered(DiscoveredReader)
    /// A scan ended, having found `readers` readers.
    case discoveryFinished(readers: Int)
    /// The reader's battery fell under the terminal's low-battery threshold (see
    /// ``CardReaderLink/setBatteryLowThreshold(_:)``).
    case batteryLow(BatteryStatus)
    /// The payment's outcome could not be written to the journal, even after retries. The
    /// payment stands as reported; a restart looks the attempt up at the gateway instead of
    /// reading its outcome. The app should tell the merchant the device's storage is failing.
    case journalWriteFailed(MPOSError)
    /// The reader's scanner read a code (while enabled with ``CardReaderLink/enableScanner(multiScan:buttonMode:timeoutSeconds:)``).
    case scan(ScanEvent)
    /// The reader's scanner turned off: disabled, timed out without a code, or done after its
    /// single scan (Handpoint's `responseScannerDisabled`).
    case scannerDisabled
    /// An update of the reader started, progressed or finished (the ECP seed's
    /// `ECPDeviceConfigStatusEvent` and `ECPDeviceConfigProgressEvent`).
    case readerUpdate(ReaderUpdateEvent)
    /// The cash drawer was opened after a cash payment (see
    /// ``Accessories/setCashDrawer(_:pin:openOnCashPayments:)``), or could not be: the
    /// error names the printer's condition. The payment stands either way.
    case cashDrawer(opened: Bool, problem: MPOSError?)
    /// A sale stored offline was forwarded and the gateway decided it for good: approved, or
    /// declined after the fact (the card approved offline, the issuer did not), with the
    /// gateway's transaction id.
    case offlineForwarded(OfflineForwardOutcome)
    /// Stored offline records failed their check (the seed's `OFFLINE_DATA_TAMPERING`): the
    /// slots named are never forwarded; those payments may be lost.
    case offlineDataTampering(slots: [Int])
    /// A networked terminal notified the sale system of an event (`EventNotification`: its
    /// `EventToNotify`, such as `BeginMaintenance`, `OutOfOrder` or `NetworkConnected`, and its
    /// details), handed over with ``TerminalAPIAdapter/receiveNotification(_:)``.
    case terminalNotification(event: String, details: String?)

    /// The kind of event, for subscription filters.
    public var category: TerminalEventCategory {
        switch self {
        case .readerConnection, .readerConnecting: .connection
        case .readerStatus, .pinEntry, .batteryLow, .terminalNotification: .status
        case .card: .card
        case .applicationSelection, .signatureRequired: .prompt
        case .authorizing, .recovering, .reversing, .completed, .journalWriteFailed, .offlineForwarded,
            .offlineDataTampering:
            .transaction
        case .readerDiscovered, .discoveryFinished: .discovery
        case .scan, .scannerDisabled: .scanner
        case .readerUpdate: .update
        case .cashDrawer: .accessory
        }
    }
}

/// The groups an event subscription can filter on.
public enum TerminalEventCategory: String, Sendable, Hashable, CaseIterable {
    /// Reader connection changes.
    case connection
    /// Reader status reports, PIN progress and low-battery warnings.
    case status
    /// Card inserted, removed, swiped, tapped.
    case card
    /// Application selection and signature prompts.
    case prompt
    /// Transaction steps and completion.
    case transaction
    /// Readers found by a scan, and the scan's end.
    case discovery
    /// Codes read by the reader's barcode scanner.
    case scanner
    /// Reader updates starting, progressing and finishing.
    case update
    /// Accessories: the cash drawer.
    case accessory
}

/// One step of a reader update, as the ECP seed reports configuration updates.
public enum ReaderUpdateEvent: Sendable, Hashable {
    /// The image's update began (`ECP_CONFIG_EVENT_UPDATE_STARTED`).
    case started(UpdateImage)
    /// Percent of the image written to the reader, 0 to 100 (`ECPDeviceConfigProgressEvent`).
    case progress(UpdateImage, percent: Double)
    /// The image's update ended, installed or not (`ECP_CONFIG_EVENT_UPDATE_FINISHED`).
    case finished(UpdateImage, succeeded: Bool)
}

/// The merchant's answer to a signature prompt.
public enum SignatureDecision: Sendable, Hashable {
    /// The signature matches the card.
    case accept
    /// The cardholder signed on the app's screen (a reader without a pad: the request's
    /// `receipt.signature` is nil) and it matches the card: the Accept seed's
    /// `AcceptSignatureRequest`. The drawing becomes the payment's signature
    /// (``PaymentResult/signature``): on the merchant copy, and stored at the gateway with the
    /// transaction before the payment returns. A reader's own pad drawing takes precedence.
    case acceptSigned(CardholderSignature)
    /// It does not; the payment is declined (and an approval reversed). No decision within
    /// the terminal's signature timeout cancels the payment instead.
    case decline

    /// Whether the merchant accepted the signature.
    public var accepts: Bool {
        switch self {
        case .accept, .acceptSigned: true
        case .decline: false
        }
    }
}
