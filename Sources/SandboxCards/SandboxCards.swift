import CardCrypto
import EMV
import MPOSCore

/// The sandbox test-card catalog: one list that the simulated reader and the sandbox issuer
/// both read, and the derivation of each card's chip key from the published sandbox issuer
/// master key.
///
/// **Test cards only.** The numbers are public test numbers and the keys are public.
///
/// ```swift
/// let card = SandboxCards.card(id: "maestro-mastercard")!
/// card.applications.count                 // 2: the reader asks the cardholder to choose
/// let mk = try SandboxCards.iccMasterKey(for: card)
/// ```
public enum SandboxCards {
    /// The PIN of every sandbox card.
    public static let pin = "1234"

    /// Every sandbox card, in documentation order.
    public static let all: [SandboxCard] = [
        card(
            "visa-credit", "Visa credit: chip, tap and swipe; online PIN; approves.",
            "4111111111111111", name: "CREDIT/VISA", apps: [.visa()], .all, .onlinePIN,
            behaviours: .init(contactlessCVMLimit: 5_000)),
        card(
            "visa-debit", "Visa debit with 500.00 balance: insufficient funds and partial approval.",
            "4000056655665556", name: "DEBIT/VISA", apps: [.visa("VISA DEBIT")], .all, .offlinePIN,
            balance: 50_000, behaviours: .init(contactlessCVMLimit: 5_000)),
        card(
            "mastercard-2series", "Mastercard with a 2-series BIN (2223): chip and tap; online PIN.",
            "2223003122003222", name: "TWOSERIES/MASTERCARD", apps: [.mastercard()], [.chip, .contactless],
            .onlinePIN, behaviours: .init(contactlessCVMLimit: 5_000)),
        card(
            "maestro-mastercard",
            "Mastercard and Maestro on one chip: the cardholder selects the application.",
            "5413330089010038", name: "DUAL/MAESTRO",
            apps: [.mastercard(priority: 1), .maestro(priority: 2)],
            [.chip, .magstripe], .offlinePIN),
        card(
            "amex", "American Express: chip and swipe; signature.", "378282246310005", psn: 0,
            name: "EXPRESS/AMERICAN", apps: [.amex], [.chip, .magstripe], .signature),
        card(
            "discover", "Discover: chip; online PIN.", "6011111111111117", name: "CARD/DISCOVER",
            apps: [.discover], [.chip, .magstripe], .onlinePIN),
        card(
            "jcb", "JCB: chip and tap; offline PIN.", "3530111333300000", name: "CARD/JCB", apps: [.jcb],
            [.chip, .contactless], .offlinePIN, behaviours: .init(contactlessCVMLimit: 5_000)),
        card(
            "unionpay", "UnionPay debit: chip; online PIN.", "6200000000000005", name: "DEBIT/UNIONPAY",
            apps: [.unionPay], [.chip, .magstripe], .onlinePIN),
        card(
            "magstripe-only", "Stripe-only Visa (service code 101): swipe with signature.",
            "4012888888881881",
            service: "101", name: "STRIPE/ONLY", apps: [], [.magstripe], .signature),
        card(
            "chip-fallback", "Mastercard whose chip cannot be read: the reader falls back to the stripe.",
            "5555555555554444", name: "FALLBACK/CHIP", apps: [.mastercard()], [.chip, .magstripe], .signature,
            behaviours: .init(magstripeFallback: true)),
        card(
            "expired", "Visa that expired in December 2022: declined 54.", "4000000000000069", expiry: "2212",
            name: "EXPIRED/VISA", apps: [.visa()], [.chip, .magstripe], .signature,
            behaviours: .init(declinesWhenUnableToGoOnline: true)),
        card(
            "blocked", "Visa blocked by its issuer: declined 62, then its chip application is blocked.",
            "4000000000000002", name: "BLOCKED/VISA", apps: [.visa()], [.chip, .contactless, .magstripe],
            .signature, behaviours: .init(blocked: true, contactlessCVMLimit: 5_000)),
        card(
            "pin-required", "Visa with offline PIN and a try limit of 3: wrong PINs block PIN entry.",
            "4761739001010010", name: "PIN/REQUIRED", apps: [.visa()], [.chip], .offlinePIN),
        card(
            "signature", "Mastercard that verifies by signature.", "5105105105105100",
            name: "SIGNATURE/MASTERCARD",
            apps: [.mastercard()], [.chip, .magstripe], .signature),
        card(
            "contactless",
            "Visa tap card, CVM limit 50.00: no CVM at or under the limit, online PIN over it.",
            "4761739001010036", name: "TAP/VISA", apps: [.visa()], [.chip, .contactless], .onlinePIN,
            behaviours: .init(contactlessCVMLimit: 5_000)),
        card(
            "contactless-signature",
            "Mastercard tap card, CVM limit 25.00: no CVM at or under the limit, signature over it.",
            "5200828282828210", name: "TAP/MASTERCARD", apps: [.mastercard()], [.chip, .contactless],
            .signature,
            behaviours: .init(contactlessCVMLimit: 2_500)),
        card(
            "approves-offline", "Visa whose chip approves offline (TC) at or under the terminal floor limit.",
            "4761739001010119", name: "OFFLINE/VISA", apps: [.visa()], [.chip], .offlinePIN,
            behaviours: .init(approvesOffline: true)),
        card(
            "declines-second-gen-ac",
            "Visa whose chip declines (AAC) at the second GENERATE AC although the host approved.",
            "4761739001010077", name: "SECONDGENAC/VISA", apps: [.visa()], [.chip], .signature,
            behaviours: .init(declinesAtSecondGenerateAC: true)),
    ]

    private static let byID: [String: SandboxCard] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.id, $0) })
    private static let byPAN: [String: SandboxCard] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.pan.unmaskedDigits, $0) })

    /// The card with this id, or `nil`.
    public static func card(id: String) -> SandboxCard? { byID[id] }

    /// The card with this number, or `nil`.
    public static func card(pan: PAN) -> SandboxCard? { byPAN[pan.unmaskedDigits] }

    /// The card with this number written as digits (spaces and dashes ignored), or `nil`.
    public static func card(pan digits: String) -> SandboxCard? { PAN(digits).flatMap { card(pan: $0) } }

    /// The card's ICC master key for application cryptograms: EMV Book 2 A1.4.1 Option A from
    /// ``SandboxKeys/imkAC``, the PAN and the PAN Sequence Number. The chip keeps it; the
    /// issuer derives it again to verify an ARQC.
    /// - Throws: ``CardCryptoError`` only for a malformed PAN, which the catalog never has.
    public static func iccMasterKey(for card: SandboxCard) throws(CardCryptoError) -> AES128Key {
        try EMVKeyDerivation.iccMasterKey(
            issuerMasterKey: SandboxKeys.imkAC, pan: card.pan, panSequenceNumber: card.panSequenceNumberBCD)
    }

    // swiftlint:disable:next function_parameter_count
    private static func card(
        _ id: String, _ summary: String, _ digits: String, psn: UInt8 = 1, expiry: String = "4912",
        service: String = "201", name: String, apps: [SandboxApplication], _ interfaces: CardInterfaces,
        _ cvm: CVMPreference, balance: Int64 = 1_000_000, behaviours: SandboxCardBehaviours = .normal
    ) -> SandboxCard {
        guard let pan = PAN(digits) else { preconditionFailure("catalog PAN for \(id) is malformed") }
        return SandboxCard(
            id: id, summary: summary, pan: pan, panSequenceNumber: psn, expiry: expiry, serviceCode: service,
            cardholderName: name, scheme: pan.scheme, applications: apps, interfaces: interfaces, cvm: cvm,
            balance: balance, behaviours: behaviours)
    }
}
