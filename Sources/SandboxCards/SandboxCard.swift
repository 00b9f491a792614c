import EMV
import MPOSCore

/// A sandbox test card: its numbers, its chip applications, how it verifies the cardholder,
/// its balance and its special behaviours.
///
/// The simulated reader reads it and the sandbox issuer authorizes against it, so both take
/// it from one catalog, ``SandboxCards/all``. A card prints by id and masked number only.
///
/// ```swift
/// let card = SandboxCards.card(id: "visa-credit")!
/// card.pan.masked        // "411111******1111"
/// card.expiryDate        // 2049-12
/// ```
public struct SandboxCard: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Stable identifier, such as `"visa-credit"`.
    public let id: String
    /// What the card is for, in one sentence (no card data).
    public let summary: String
    /// The full card number, a well-known Luhn-valid test number. Prints masked.
    public let pan: PAN
    /// PAN Sequence Number, two digits (tag 5F34 holds it as one BCD byte).
    public let panSequenceNumber: UInt8
    /// Expiry as `YYMM`.
    public let expiry: String
    /// The three-digit service code of the stripe and Track 2 equivalent.
    public let serviceCode: String
    /// Cardholder name as the chip and stripe carry it (`SURNAME/GIVEN`).
    public let cardholderName: String
    /// The card scheme.
    public let scheme: CardScheme
    /// Chip applications, in the order the chip lists them (empty for a stripe-only card).
    public let applications: [SandboxApplication]
    /// The ways the card can be read.
    public let interfaces: CardInterfaces
    /// The cardholder verification the card prefers.
    public let cvm: CVMPreference
    /// The PIN. Every sandbox card uses `"1234"`.
    public let pin: String
    /// Wrong offline PINs allowed before the chip blocks PIN verification.
    public let pinTryLimit: Int
    /// Available balance in minor units of ``currency``.
    public let balance: Int64
    /// The currency of the card account.
    public let currency: Currency
    /// Special behaviours.
    public let behaviours: SandboxCardBehaviours

    /// Creates a card. `panSequenceNumber` is 0–99.
    public init(
        id: String, summary: String, pan: PAN, panSequenceNumber: UInt8 = 1, expiry: String = "4912",
        serviceCode: String = "201", cardholderName: String, scheme: CardScheme,
        applications: [SandboxApplication], interfaces: CardInterfaces, cvm: CVMPreference,
        pin: String = SandboxCards.pin, pinTryLimit: Int = 3, balance: Int64 = 1_000_000,
        currency: Currency = .eur, behaviours: SandboxCardBehaviours = .normal
    ) {
        self.id = id
        self.summary = summary
        self.pan = pan
        self.panSequenceNumber = panSequenceNumber
        self.expiry = expiry
        self.serviceCode = serviceCode
        self.cardholderName = cardholderName
        self.scheme = scheme
        self.applications = applications
        self.interfaces = interfaces
        self.cvm = cvm
        self.pin = pin
        self.pinTryLimit = pinTryLimit
        self.balance = balance
        self.currency = currency
        self.behaviours = behaviours
    }

    /// The expiry as a year and month; `nil` only for a malformed ``expiry``.
    public var expiryDate: CardExpiry? {
        let digits = Array(expiry.utf8)
        guard digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let value = digits.map { Int($0 - 48) }
        return CardExpiry(year: 2000 + value[0] * 10 + value[1], month: value[2] * 10 + value[3])
    }

    /// Whether the card has expired in the given month (valid through the end of its expiry
    /// month).
    public func isExpired(atYear year: Int, month: Int) -> Bool {
        expiryDate?.isExpired(atYear: year, month: month) ?? true
    }

    /// The PAN Sequence Number as tag 5F34 carries it: one BCD byte (`0x01` for 01).
    public var panSequenceNumberBCD: UInt8 { (panSequenceNumber / 10) << 4 | (panSequenceNumber % 10) }

    /// The chip's Track 2 Equivalent Data (tag 57): PAN, `D`, YYMM, service code and a fixed
    /// discretionary `00000000`, BCD with `F` padding. Card data: never log it.
    public var track2Equivalent: [UInt8] {
        BCDText.pack(pan.unmaskedDigits + "D" + expiry + serviceCode + "00000000")
    }

    /// The stripe's Track 2 as the swipe reads it, `;PAN=YYMMSSS00000000?`. Card data.
    public var magstripeTrack2: String {
        ";" + pan.unmaskedDigits + "=" + expiry + serviceCode + "00000000?"
    }

    /// Whether the chip holds more than one application, so the cardholder must choose.
    public var needsApplicationSelection: Bool { applications.count > 1 }

    /// `id (masked PAN)`.
    public var description: String { "\(id) (\(pan.masked))" }

    /// Same as ``description``: no card data in dumps.
    public var debugDescription: String { "SandboxCard(\(description))" }
}

/// Packs digit text into BCD nibbles (`D` as 0xD), padding with `F`.
enum BCDText {
    static func pack(_ text: String) -> [UInt8] {
        var nibbles: [UInt8] = text.utf8.map { char in
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
            case UInt8(ascii: "D"), UInt8(ascii: "="): 0x0D
            default: 0x0F
            }
        }
        if nibbles.count % 2 == 1 { nibbles.append(0x0F) }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }
}
