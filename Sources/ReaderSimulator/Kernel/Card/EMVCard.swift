import CardCrypto
import EMV
import SandboxCards

/// The kernel's one way to a card: the EMV commands of a contact or contactless transaction.
///
/// ``SimulatedCard`` answers them as Swift calls; ``APDUCard`` turns each into the ISO 7816-4
/// command (SELECT, GET PROCESSING OPTIONS, READ RECORD, GET DATA, VERIFY, GENERATE AC,
/// EXTERNAL AUTHENTICATE) and sends it through an ``APDUTransport``. The card decides what a
/// card decides (its counters, its cryptograms, its answer to the issuer); the kernel decides
/// what a terminal decides.
///
/// - Throws: every command throws ``CardError`` when the card is gone, mute or answers
///   something the kernel cannot use.
public protocol EMVCard: Sendable {
    /// What the reader sees without talking to the chip: the card's interfaces and its stripe.
    var surface: CardSurface { get }
    /// SELECT of the payment system directory: the card's applications in the card's order.
    mutating func selectPaymentSystem() throws(CardError) -> [SandboxApplication]
    /// SELECT of one application; starts the card's side of a transaction.
    mutating func selectApplication(_ aid: [UInt8]) throws(CardError)
    /// GET PROCESSING OPTIONS and the READ RECORDs of the selected application.
    mutating func readApplicationData(contactless: Bool) throws(CardError) -> CardRecords
    /// GET DATA of the PIN Try Counter (9F17); `nil` when the card does not tell.
    mutating func pinTryCounter() throws(CardError) -> Int?
    /// VERIFY with a plaintext offline PIN.
    mutating func verifyOfflinePIN(_ pin: String) throws(CardError) -> PINVerification
    /// GENERATE AC: the card's cryptogram over the terminal's data.
    mutating func generateAC(_ command: GenerateACCommand) throws(CardError) -> GenerateACResponse
    /// EXTERNAL AUTHENTICATE with the issuer authentication data (tag 91): whether the card
    /// found the ARPC right (it then applies the card status update).
    mutating func externalAuthenticate(_ issuerAuthenticationData: [UInt8]) throws(CardError) -> Bool
}

/// The result of an offline PIN verification.
public enum PINVerification: Sendable, Hashable {
    /// The PIN is right; the try counter is back at the limit.
    case correct
    /// The PIN is wrong; `triesRemaining` more attempts are allowed (0: now blocked).
    case wrong(triesRemaining: Int)
    /// PIN verification was already blocked; nothing was checked.
    case blocked
}

/// What a reader sees of a card before it talks to the chip.
public struct CardSurface: Sendable, Hashable {
    /// How the card can be read.
    public var interfaces: CardInterfaces
    /// What a swipe reads, for a card with a stripe.
    public var stripe: CardRecords?
    /// Whether the chip is known unreadable, so that a fallback swipe is allowed.
    public var allowsFallbackSwipe: Bool

    /// Creates a surface.
    public init(interfaces: CardInterfaces, stripe: CardRecords? = nil, allowsFallbackSwipe: Bool = false) {
        self.interfaces = interfaces
        self.stripe = stripe
        self.allowsFallbackSwipe = allowsFallbackSwipe
    }
}

/// What the kernel reads from an application's records. Card data: never log it; it prints
/// masked.
public struct CardRecords: Sendable, Hashable, CustomStringConvertible {
    /// Application PAN (5A).
    public var pan: PAN
    /// Expiry `YYMM` (5F24).
    public var expiry: String
    /// PAN Sequence Number as one BCD byte (5F34).
    public var panSequenceNumberBCD: UInt8?
    /// Cardholder name (5F20).
    public var cardholderName: String?
    /// Track 2 Equivalent Data (57).
    public var track2Equivalent: [UInt8]?
    /// The service code from the track 2 data.
    public var serviceCode: String?
    /// The cardholder verification the card asks for (the first rule of its CVM list, 8E).
    public var cvm: CVMPreference
    /// Contactless transactions at or under this amount need no CVM.
    public var contactlessCVMLimit: Int64?
    /// Application Interchange Profile (82).
    public var aip: [UInt8]
    /// The card scheme.
    public var scheme: CardScheme

    /// Creates records; the scheme defaults to the one of the PAN's IIN.
    public init(
        pan: PAN, expiry: String, panSequenceNumberBCD: UInt8?, cardholderName: String?,
        track2Equivalent: [UInt8]?,
        serviceCode: String?, cvm: CVMPreference, contactlessCVMLimit: Int64? = nil, aip: [UInt8],
        scheme: CardScheme? = nil
    ) {
        self.scheme = scheme ?? pan.scheme
        self.pan = pan
        self.expiry = expiry
        self.panSequenceNumberBCD = panSequenceNumberBCD
        self.cardholderName = cardholderName
        self.track2Equivalent = track2Equivalent
        self.serviceCode = serviceCode
        self.cvm = cvm
        self.contactlessCVMLimit = contactlessCVMLimit
        self.aip = aip
    }

    /// The records of a sandbox card as its chip holds them.
    public init(card: SandboxCard, contactless: Bool = false) {
        self.init(
            pan: card.pan, expiry: card.expiry, panSequenceNumberBCD: card.panSequenceNumberBCD,
            cardholderName: card.cardholderName, track2Equivalent: card.track2Equivalent,
            serviceCode: card.serviceCode, cvm: card.cvm,
            contactlessCVMLimit: card.behaviours.contactlessCVMLimit,
            aip: contactless ? [0x1C, 0x80] : [0x1C, 0x00], scheme: card.scheme)
    }

    /// Whether the card has expired in the given month (valid through its expiry month).
    public func isExpired(atYear year: Int, month: Int) -> Bool {
        guard expiry.utf8.count == 4, let yy = Int(expiry.prefix(2)), let mm = Int(expiry.suffix(2)) else {
            return true
        }
        return CardExpiry(year: 2000 + yy, month: mm)?.isExpired(atYear: year, month: month) ?? true
    }

    /// The card data the reader seals for the host.
    public var plaintext: CardDataPlaintext {
        CardDataPlaintext(
            pan: pan, expiry: expiry, panSequenceNumber: panSequenceNumberBCD,
            track2Equivalent: track2Equivalent,
            cardholderName: cardholderName)
    }

    /// The masked PAN only.
    public var description: String { "CardRecords(\(pan.masked))" }
}

/// A GENERATE AC command.
public struct GenerateACCommand: Sendable, Hashable {
    /// The cryptogram the terminal asks for: TC (approve offline, or after the host approved),
    /// ARQC (go online) or AAC (decline).
    public var requested: CryptogramType
    /// The terminal's data, by tag: 9F02 9F03 9F1A 95 5F2A 9A 9C 9F37 9F34, and 8A for the
    /// second GENERATE AC.
    public var values: [EMVTag: [UInt8]]
    /// The online PIN the cardholder typed: the sandbox's stand-in for the PIN block, which only
    /// a simulated card reads (an APDU card never receives it).
    public var onlinePIN: String?

    /// Creates a command.
    public init(requested: CryptogramType, values: [EMVTag: [UInt8]], onlinePIN: String? = nil) {
        self.requested = requested
        self.values = values
        self.onlinePIN = onlinePIN
    }
}

/// A card's answer to GENERATE AC.
public struct GenerateACResponse: Sendable, Hashable {
    /// What the card gave: TC, ARQC or AAC (9F27).
    public var type: CryptogramType
    /// The Application Transaction Counter (9F36).
    public var atc: UInt16
    /// The cryptogram (9F26).
    public var cryptogram: [UInt8]
    /// Issuer Application Data (9F10).
    public var issuerApplicationData: [UInt8]

    /// Creates a response.
    public init(type: CryptogramType, atc: UInt16, cryptogram: [UInt8], issuerApplicationData: [UInt8]) {
        self.type = type
        self.atc = atc
        self.cryptogram = cryptogram
        self.issuerApplicationData = issuerApplicationData
    }
}
