import MPOSCore

/// What a reader says about itself.
public struct DeviceInfo: Sendable, Hashable {
    /// The reader's serial number.
    public var serialNumber: String
    /// The manufacturer's name.
    public var manufacturer: String
    /// The model name.
    public var model: String
    /// The payment application's name.
    public var applicationName: String
    /// The payment application's version.
    public var applicationVersion: String
    /// The version of the EMV parameters (terminal and application configuration) loaded.
    public var emvParameterVersion: String
    /// The version of the CA public keys loaded.
    public var publicKeyVersion: String
    /// The battery state at the time of the report.
    public var battery: BatteryStatus

    /// Creates device information.
    public init(
        serialNumber: String, manufacturer: String, model: String, applicationName: String,
        applicationVersion: String, emvParameterVersion: String, publicKeyVersion: String,
        battery: BatteryStatus
    ) {
        self.serialNumber = serialNumber
        self.manufacturer = manufacturer
        self.model = model
        self.applicationName = applicationName
        self.applicationVersion = applicationVersion
        self.emvParameterVersion = emvParameterVersion
        self.publicKeyVersion = publicKeyVersion
        self.battery = battery
    }
}

/// The reader's power state.
public struct BatteryStatus: Sendable, Hashable {
    /// Charge, 0 to 100.
    public var percentage: UInt8
    /// Whether the battery is charging.
    public var isCharging: Bool
    /// Whether external power is connected.
    public var hasExternalPower: Bool

    /// Creates a battery status.
    public init(percentage: UInt8, isCharging: Bool, hasExternalPower: Bool) {
        self.percentage = percentage
        self.isCharging = isCharging
        self.hasExternalPower = hasExternalPower
    }
}

/// What kind of answer an input request wants.
public enum InputKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Yes or no.
    case confirm = 1
    /// An amount in minor units.
    case amount = 2
    /// A string of digits.
    case digits = 3
    /// Free text.
    case text = 4
}

/// The reader asks the cardholder or merchant for input.
public struct InputRequest: Sendable, Hashable {
    /// The prompt shown.
    public var prompt: String
    /// The kind of input wanted.
    public var kind: InputKind

    /// Creates an input request.
    public init(prompt: String, kind: InputKind) {
        self.prompt = prompt
        self.kind = kind
    }
}

/// The answer to an ``InputRequest``.
public enum InputResponse: Sendable, Hashable {
    /// A yes/no answer.
    case confirmed(Bool)
    /// The text, digits or amount (in minor units, as decimal digits) entered.
    case value(String)
    /// The user cancelled.
    case cancelled
}

/// The currency of a transaction: ISO 4217 numeric or alphabetic code.
public enum TransactionCurrency: Sendable, Hashable {
    /// Numeric code, e.g. 978 for EUR.
    case numeric(UInt16)
    /// Alphabetic code, e.g. "EUR".
    case alphabetic(String)
}

/// Starts a financial transaction on the reader.
public struct StartTransaction: Sendable, Hashable {
    /// The SDK's identifier of the transaction.
    public var transactionID: String
    /// Sale, refund, void …
    public var kind: TransactionKind
    /// The amount in minor units.
    public var amountMinorUnits: Int64
    /// The amount's currency.
    public var currency: TransactionCurrency
    /// Tip amounts (minor units) the reader offers, if any.
    public var tipAmounts: [Int64]
    /// Tip percentages the reader offers, if any.
    public var tipPercentages: [UInt8]
    /// Whether the cardholder is present.
    public var cardholderPresent: Bool
    /// The transaction a refund, void or capture refers to.
    public var originalTransactionID: String?

    /// Creates a start-transaction request.
    public init(
        transactionID: String, kind: TransactionKind, amountMinorUnits: Int64, currency: TransactionCurrency,
        tipAmounts: [Int64] = [], tipPercentages: [UInt8] = [], cardholderPresent: Bool = true,
        originalTransactionID: String? = nil
    ) {
        self.transactionID = transactionID
        self.kind = kind
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.tipAmounts = tipAmounts
        self.tipPercentages = tipPercentages
        self.cardholderPresent = cardholderPresent
        self.originalTransactionID = originalTransactionID
    }
}

/// Something happened to the card.
public enum CardEvent: UInt8, Sendable, Hashable, CaseIterable {
    /// A chip card was inserted.
    case inserted = 1
    /// The card was removed.
    case removed = 2
    /// A magnetic stripe was swiped.
    case swiped = 3
    /// A contactless card or device was tapped.
    case tapped = 4
}

/// One application the card offers, for the cardholder to choose from.
public struct ApplicationCandidate: Sendable, Hashable {
    /// The application identifier.
    public var aid: [UInt8]
    /// The application label (tag 50).
    public var label: String
    /// The application preferred name (tag 9F12), if any.
    public var preferredName: String?
    /// The application priority indicator (tag 87), 0 when absent.
    public var priority: UInt8

    /// Creates a candidate.
    public init(aid: [UInt8], label: String, preferredName: String? = nil, priority: UInt8 = 0) {
        self.aid = aid
        self.label = label
        self.preferredName = preferredName
        self.priority = priority
    }
}

/// The answer to an application selection request.
public enum ApplicationChoice: Sendable, Hashable {
    /// The zero-based index of the chosen candidate.
    case chosen(index: UInt8)
    /// The selection was cancelled.
    case cancel
}

/// The cardholder's signature, captured on the phone, sent to the reader.
public struct SignatureResponse: Sendable, Hashable {
    /// The transaction the signature belongs to.
    public var transactionID: String
    /// Whether the cardholder signed (false: declined to sign).
    public var accepted: Bool
    /// The signature image as PNG (empty when declined).
    public var png: [UInt8]

    /// Creates a signature response.
    public init(transactionID: String, accepted: Bool, png: [UInt8]) {
        self.transactionID = transactionID
        self.accepted = accepted
        self.png = png
    }
}

/// The merchant's verdict on the signature, compared with the card.
public struct SignatureVerdict: Sendable, Hashable {
    /// The transaction the signature belongs to.
    public var transactionID: String
    /// Whether the merchant accepts the signature.
    public var accepted: Bool

    /// Creates a verdict.
    public init(transactionID: String, accepted: Bool) {
        self.transactionID = transactionID
        self.accepted = accepted
    }
}

/// PIN entry progress, for the SDK's display. Never carries the digits themselves.
public struct PINEntryProgress: Sendable, Hashable {
    /// How many digits have been entered so far.
    public var digitsEntered: UInt8
    /// PIN tries left on the card, when known.
    public var attemptsLeft: UInt8?

    /// Creates a progress report.
    public init(digitsEntered: UInt8, attemptsLeft: UInt8?) {
        self.digitsEntered = digitsEntered
        self.attemptsLeft = attemptsLeft
    }
}

/// The reader asks for online authorization. Card data is encrypted at the reader; the clear
/// PAN and track data never cross the link.
public struct AuthorizationRequest: Sendable, Hashable {
    /// The transaction being authorized.
    public var transactionID: String
    /// BER-TLV EMV data including the ARQC (9F26) and no clear PAN or track data.
    public var emvData: [UInt8]
    /// The card data envelope encrypted under the reader's DUKPT key.
    public var encryptedCardData: [UInt8]
    /// The key serial number of the DUKPT key used.
    public var ksn: [UInt8]
    /// The PAN, masked to first 6 / last 4.
    public var maskedPAN: String
    /// The cardholder name, when the card has one.
    public var cardholderName: String?
    /// The expiry, `YYMM`.
    public var expiry: String
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// The application label, for receipts.
    public var applicationLabel: String?
    /// The application identifier, for receipts.
    public var aid: [UInt8]?

    /// Creates an authorization request.
    public init(
        transactionID: String, emvData: [UInt8], encryptedCardData: [UInt8], ksn: [UInt8], maskedPAN: String,
        cardholderName: String? = nil, expiry: String, entryMode: CardEntryMode, cvm: CardholderVerification,
        applicationLabel: String? = nil, aid: [UInt8]? = nil
    ) {
        self.transactionID = transactionID
        self.emvData = emvData
        self.encryptedCardData = encryptedCardData
        self.ksn = ksn
        self.maskedPAN = maskedPAN
        self.cardholderName = cardholderName
        self.expiry = expiry
        self.entryMode = entryMode
        self.cvm = cvm
        self.applicationLabel = applicationLabel
        self.aid = aid
    }
}

/// The host's answer, sent to the reader to complete the transaction.
public struct HostResponse: Sendable, Hashable {
    /// The transaction being completed.
    public var transactionID: String
    /// Whether the host approved.
    public var approved: Bool
    /// The two-character authorization response code (tag 8A), e.g. "00".
    public var authorizationResponseCode: String
    /// The approval code, when approved.
    public var authorizationCode: String?
    /// Issuer authentication data (tag 91, with the ARPC).
    public var issuerAuthenticationData: [UInt8]
    /// Issuer scripts (tags 71/72), as BER-TLV.
    public var issuerScripts: [UInt8]

    /// Creates a host response. An empty response code means the host could not be reached.
    public init(
        transactionID: String, approved: Bool, authorizationResponseCode: String,
        authorizationCode: String? = nil,
        issuerAuthenticationData: [UInt8] = [], issuerScripts: [UInt8] = []
    ) {
        self.transactionID = transactionID
        self.approved = approved
        self.authorizationResponseCode = authorizationResponseCode
        self.authorizationCode = authorizationCode
        self.issuerAuthenticationData = issuerAuthenticationData
        self.issuerScripts = issuerScripts
    }
}

/// The kind of application cryptogram the card produced.
public enum CryptogramKind: UInt8, Sendable, Hashable, CaseIterable {
    /// Transaction certificate: approved.
    case tc = 1
    /// Application authentication cryptogram: declined.
    case aac = 2
    /// Authorization request cryptogram: go online.
    case arqc = 3
}

/// How a transaction ended on the reader.
public struct TransactionOutcome: Sendable, Hashable {
    /// The transaction.
    public var transactionID: String
    /// The final cryptogram's kind.
    public var cryptogramType: CryptogramKind
    /// BER-TLV EMV data for the receipt and the clearing record (no clear PAN or track).
    public var emvData: [UInt8]
    /// The reader's final status.
    public var status: ReaderStatusCode
    /// How the cardholder was verified.
    public var cvm: CardholderVerification
    /// How the card was read.
    public var entryMode: CardEntryMode
    /// Whether a PIN was verified (offline or online).
    public var pinVerified: Bool

    /// Creates an outcome.
    public init(
        transactionID: String, cryptogramType: CryptogramKind, emvData: [UInt8], status: ReaderStatusCode,
        cvm: CardholderVerification, entryMode: CardEntryMode, pinVerified: Bool
    ) {
        self.transactionID = transactionID
        self.cryptogramType = cryptogramType
        self.emvData = emvData
        self.status = status
        self.cvm = cvm
        self.entryMode = entryMode
        self.pinVerified = pinVerified
    }
}

/// A status report, as the reader moves through a transaction.
public struct StatusReport: Sendable, Hashable {
    /// The status.
    public var status: ReaderStatusCode
    /// The message the reader shows.
    public var message: String
    /// Whether a cancel request would be honoured now.
    public var cancelAllowed: Bool
    /// The transaction the status belongs to, if any.
    public var transactionID: String?

    /// Creates a status report.
    public init(status: ReaderStatusCode, message: String, cancelAllowed: Bool, transactionID: String? = nil)
    {
        self.status = status
        self.message = message
        self.cancelAllowed = cancelAllowed
        self.transactionID = transactionID
    }
}

/// How much the reader logs.
public enum ReaderLogLevel: UInt8, Sendable, Hashable, CaseIterable {
    /// Nothing.
    case none = 0
    /// Main events.
    case info = 1
    /// Everything but debug detail.
    case full = 2
    /// Everything.
    case debug = 3
}

/// Scanner settings.
public struct ScannerConfiguration: Sendable, Hashable {
    /// Keep scanning after a code is read.
    public var multiScan: Bool
    /// The operator presses the scan button to scan.
    public var buttonMode: Bool
    /// Seconds of inactivity before the scanner stops; 0 lets the reader decide.
    public var timeoutSeconds: UInt16

    /// Creates scanner settings.
    public init(multiScan: Bool = false, buttonMode: Bool = true, timeoutSeconds: UInt16 = 0) {
        self.multiScan = multiScan
        self.buttonMode = buttonMode
        self.timeoutSeconds = timeoutSeconds
    }
}

/// A code read by the scanner.
public struct ScanEvent: Sendable, Hashable {
    /// The decoded code.
    public var barcode: String
    /// The symbology, e.g. "EAN-13", "QR".
    public var symbology: String

    /// Creates a scan event.
    public init(barcode: String, symbology: String) {
        self.barcode = barcode
        self.symbology = symbology
    }
}

/// Which image an update replaces.
public enum UpdateSlot: UInt8, Sendable, Hashable, CaseIterable {
    /// The reader firmware.
    case firmware = 1
    /// The configuration (EMV parameters, keys).
    case configuration = 2
}

/// Starts an update image transfer.
public struct UpdateBegin: Sendable, Hashable {
    /// The slot written.
    public var slot: UpdateSlot
    /// The image size in bytes.
    public var size: UInt32
    /// The image's SHA-256 (32 bytes), checked by `updateVerify`.
    public var sha256: [UInt8]
    /// The image's version.
    public var version: String

    /// Creates an update start.
    public init(slot: UpdateSlot, size: UInt32, sha256: [UInt8], version: String) {
        self.slot = slot
        self.size = size
        self.sha256 = sha256
        self.version = version
    }
}

/// The reader's answer to an update step: how far it has the image, and the step's status.
public struct UpdateAck: Sendable, Hashable {
    /// Bytes of the image held so far (the offset the next chunk must start at); a transfer
    /// resumed after a dropped link continues from here.
    public var offset: UInt32
    /// `success`, or why the step failed.
    public var status: ReaderStatusCode

    /// Creates an update acknowledgement.
    public init(offset: UInt32, status: ReaderStatusCode) {
        self.offset = offset
        self.status = status
    }
}
