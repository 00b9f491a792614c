import CardCrypto
import Foundation
import SandboxCards

/// A sandbox card's chip with its state: the Application Transaction Counter, the PIN try
/// counter and whether its application is blocked.
///
/// The state lives as long as the value: a device keeps one per inserted card so that the ATC
/// grows across transactions, as on a real chip.
public struct SimulatedCard: Sendable {
    /// The catalog card.
    public let card: SandboxCard
    /// The last ATC used; the next GENERATE AC of a new transaction uses `atc + 1`.
    public private(set) var atc: UInt16
    /// Offline PIN tries left before PIN verification is blocked.
    public internal(set) var pinTriesRemaining: Int
    /// Whether the issuer blocked the application (through a CSU); selection then fails.
    public internal(set) var isApplicationBlocked = false
    /// Whether issuer authentication failed on the last online transaction (reported in the CVR).
    public internal(set) var lastIssuerAuthenticationFailed = false
    let masterKey: AES128Key
    /// The UTC day (counted from 1970-01-01) ``alignATC(to:)`` last aligned the counter on.
    private var atcDay: Int64?
    /// The card's side of the transaction in progress, from SELECT to the second GENERATE AC.
    var transaction: CardTransaction?

    /// Personalises a chip for `card`, with its ICC master key from
    /// ``SandboxCards/iccMasterKey(for:)``.
    /// - Parameter atc: the counter to start from (the first transaction uses `atc + 1`).
    /// - Throws: ``CardCryptoError`` only for a malformed catalog PAN.
    public init(card: SandboxCard, atc: UInt16 = 0) throws(CardCryptoError) {
        self.card = card
        self.atc = atc
        self.pinTriesRemaining = card.pinTryLimit
        self.masterKey = try SandboxCards.iccMasterKey(for: card)
    }

    /// VERIFY (offline PIN): compares with the card's PIN and updates the try counter.
    public mutating func verifyOfflinePIN(_ pin: String) -> PINVerification {
        let result: PINVerification
        if pinTriesRemaining <= 0 {
            result = .blocked
        } else if pin == card.pin {
            pinTriesRemaining = card.pinTryLimit
            result = .correct
        } else {
            pinTriesRemaining -= 1
            result = .wrong(triesRemaining: pinTriesRemaining)
        }
        transaction?.lastVerification = result
        return result
    }

    /// Lifts the counter to the time of day of `date` (one step per two seconds since UTC
    /// midnight, at most 43,199), starting again from there on a new UTC day.
    ///
    /// The emulated reader calls it before each transaction so that a chip that every emulator
    /// and every restart begins afresh never repeats a counter the gateway has seen that day:
    /// the gateway refuses an ATC that is not above the highest it saw for the card on the
    /// transaction's date (docs/test-cards.md). A restart may repeat counters only if the run
    /// before it averaged more than one transaction per two seconds on the card.
    public mutating func alignATC(to date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let floor = UInt16((seconds - day * 86_400) / 2)
        atc = day == atcDay ? max(atc, floor) : floor
        atcDay = day
    }

    /// Starts a transaction's first GENERATE AC: increments and returns the ATC.
    mutating func nextATC() -> UInt16 {
        atc &+= 1
        return atc
    }

    /// The AC session key for an ATC.
    func sessionKey(atc: UInt16) throws(CardCryptoError) -> AES128Key {
        try EMVKeyDerivation.sessionKey(iccMasterKey: masterKey, atc: atc)
    }
}
