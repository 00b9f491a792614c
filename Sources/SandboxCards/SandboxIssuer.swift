import CardCrypto
import EMV
import Foundation
import MPOSCore

/// The sandbox issuer's policy, pure and without I/O: the sandbox gateway calls it to verify an
/// authorization request and to decide on it.
///
/// ```swift
/// let issuer = SandboxIssuer()
/// let verified = try issuer.verify(emvData: tlv, encryptedCardData: sealed, ksn: ksnBytes)
/// let decision = issuer.decide(verified, amount: 1250, currency: .eur, now: .now,
///                              allowPartial: false, spentSoFar: 0)
/// decision.responseCode                 // "00"
/// decision.responseEMVData              // 8A, 89, 91 for the reader
/// ```
public struct SandboxIssuer: Sendable {
    /// The cards the issuer knows.
    public let cards: [SandboxCard]

    /// An issuer for the sandbox catalog (or another list of cards, for tests).
    public init(cards: [SandboxCard] = SandboxCards.all) {
        self.cards = cards
    }

    /// Opens the card data, finds the card and verifies the ARQC.
    ///
    /// Steps: decode the KSN; open the envelope with ``SandboxKeys/bdk``; decode the
    /// ``CardDataPlaintext``; find the card by PAN; check the clear EMV data agrees with it (5F34
    /// and any 5A, expiry, `maskedPAN` first 6 / last 4); decode any 9F02 and 5F2A, which the
    /// decision compares with the request (n 12 and n 3); derive the session key from the ICC
    /// master key and the ATC (9F36); verify 9F26 over ``CryptogramInput/init(tree:)``. A request
    /// without 9F26 is accepted only as a swipe: the card data must carry Track 2 and the card
    /// a stripe.
    /// - Throws: ``SandboxIssuerError`` with kind `invalidKSN`, `badCiphertext`,
    ///   `malformedCardData`, `unknownCard`, `cardDataMismatch`, `malformedEMVData`,
    ///   `missingEMVData` or `badARQC`.
    public func verify(
        emvData: [UInt8], encryptedCardData: [UInt8], ksn: [UInt8], maskedPAN: String? = nil
    ) throws(SandboxIssuerError) -> VerifiedAuthorization {
        let serial: KSN
        do {
            serial = try KSN(bytes: ksn)
        } catch {
            throw SandboxIssuerError(.invalidKSN, "the KSN is not 12 bytes")
        }
        guard serial.bdkID == SandboxKeys.bdkID else {
            throw SandboxIssuerError(
                .badCiphertext, "the KSN names BDK \(Hex.encode(serial.bdkID)), not the sandbox BDK")
        }
        let opened: [UInt8]
        do {
            opened = try CardDataEnvelope.open(
                ciphertext: encryptedCardData, ksn: serial, bdk: SandboxKeys.bdk)
        } catch {
            if error.kind == .invalidTransactionCounter || error.kind == .invalidKSN {
                throw SandboxIssuerError(.invalidKSN, "the KSN's counter is not usable")
            }
            throw SandboxIssuerError(.badCiphertext, "the card data does not open: \(error.kind.name)")
        }
        let plaintext = try CardDataPlaintext(decoding: opened)
        let masked = plaintext.pan.masked
        guard let card = cards.first(where: { $0.pan == plaintext.pan }) else {
            throw SandboxIssuerError(.unknownCard, "not a sandbox card", maskedPAN: masked)
        }
        guard plaintext.expiry == card.expiry,
            plaintext.panSequenceNumber == nil || plaintext.panSequenceNumber == card.panSequenceNumberBCD
        else {
            throw SandboxIssuerError(
                .cardDataMismatch, "expiry or PSN differ from the card's", maskedPAN: masked)
        }
        let tree: TLVTree
        do {
            tree = try TLVTree(decoding: emvData)
        } catch {
            throw SandboxIssuerError(.malformedEMVData, "EMV data: \(error.description)", maskedPAN: masked)
        }
        if let psn = tree[0x5F34], Array(psn) != [card.panSequenceNumberBCD] {
            throw SandboxIssuerError(.cardDataMismatch, "5F34 differs from the card data", maskedPAN: masked)
        }
        if let clearPAN = tree[0x5A], PAN(bcd: clearPAN) != plaintext.pan {
            throw SandboxIssuerError(.cardDataMismatch, "5A differs from the card data", maskedPAN: masked)
        }
        if let maskedPAN, !SandboxIssuer.maskedPAN(maskedPAN, matches: plaintext.pan) {
            throw SandboxIssuerError(
                .cardDataMismatch, "the masked PAN differs from the card data", maskedPAN: masked)
        }
        // The decision compares these with the request; a malformed one is refused, not skipped.
        let amount = try SandboxIssuer.value(0x9F02, in: tree, maskedPAN: masked) { (value) throws(EMVValueError) in
            try EMVAmount(numeric: value).minorUnits
        }
        let currencyCode = try SandboxIssuer.value(0x5F2A, in: tree, maskedPAN: masked) { (value) throws(EMVValueError) in
            try CurrencyCode(value).numericCode
        }

        var atc: UInt16?
        var arqc: [UInt8]?
        var sessionKey: AES128Key?
        if let cryptogram = tree[0x9F26] {
            let input: CryptogramInput
            do {
                input = try CryptogramInput(tree: tree)
            } catch {
                throw SandboxIssuerError(.missingEMVData, error.message, maskedPAN: masked)
            }
            let key: AES128Key
            do {
                key = try EMVKeyDerivation.sessionKey(
                    iccMasterKey: SandboxCards.iccMasterKey(for: card), atc: input.atc)
            } catch {
                throw SandboxIssuerError(.badARQC, "no session key: \(error.kind.name)", maskedPAN: masked)
            }
            guard verifyCryptogram(cryptogram, input: input, sessionKey: key) else {
                throw SandboxIssuerError(.badARQC, "the ARQC does not verify", maskedPAN: masked)
            }
            atc = input.atc
            arqc = Array(cryptogram)
            sessionKey = key
        } else {
            guard plaintext.track2Equivalent != nil, card.interfaces.contains(.magstripe) else {
                throw SandboxIssuerError(.missingEMVData, "tag 9F26 is missing", maskedPAN: masked)
            }
        }
        return VerifiedAuthorization(
            card: card, cardData: plaintext, ksn: serial, atc: atc, arqc: arqc,
            amount: amount, currencyCode: currencyCode,
            tvr: tree[0x95].map(Array.init),
            cardVerificationResults: tree[0x9F10].flatMap {
                CardVerificationResults(issuerApplicationData: $0)
            },
            posEntryMode: tree[0x9F39]?.first, sessionKey: sessionKey,
            transactionDate: tree[0x9A].map(Array.init))
    }

    /// Decides on a verified request at a moment in time (UTC year and month of `now`).
    /// See ``decide(_:amount:currency:year:month:allowPartial:spentSoFar:)``.
    public func decide(
        _ v: VerifiedAuthorization, amount: Int64, currency: Currency, now: Date, allowPartial: Bool,
        spentSoFar: Int64
    ) -> IssuerDecision {
        let (year, month) = SandboxIssuer.utcYearMonth(of: now)
        return decide(
            v, amount: amount, currency: currency, year: year, month: month, allowPartial: allowPartial,
            spentSoFar: spentSoFar)
    }

    /// A decision made before the card's spend so far is known, to be finished with it:
    /// ``PendingDecision/decision(spentSoFar:)`` returns exactly what
    /// ``decide(_:amount:currency:now:allowPartial:spentSoFar:)`` returns for that spend.
    ///
    /// The gateway reads the spend inside its serialized writer; everything that does not
    /// depend on it (the calendar, the rules, the ARPC and the authorization code) is worked
    /// out here, beforehand and concurrently, and the writer only compares two numbers.
    public func pendingDecision(
        _ v: VerifiedAuthorization, amount: Int64, currency: Currency, now: Date, allowPartial: Bool
    ) -> PendingDecision {
        let (year, month) = SandboxIssuer.utcYearMonth(of: now)
        let withoutSpend = decide(
            v, amount: amount, currency: currency, year: year, month: month, allowPartial: allowPartial,
            spentSoFar: 0)
        // Spending only lowers what is available: an approval of the full amount stands while
        // the amount still fits, and a refusal made before the balance step never changes.
        // A partial approval's amount depends on the spend, so it is always decided again.
        let standsUpTo: Int64? =
            switch withoutSpend.responseCode {
            case "10": -1
            case "00" where currency == v.card.currency: v.card.balance - amount
            default: nil
            }
        return PendingDecision(
            withoutSpend: withoutSpend, standsUpTo: standsUpTo,
            decideAgain: { spent in
                self.decide(
                    v, amount: amount, currency: currency, year: year, month: month,
                    allowPartial: allowPartial, spentSoFar: spent)
            })
    }

    /// See ``pendingDecision(_:amount:currency:now:allowPartial:)``.
    public struct PendingDecision: Sendable {
        /// The decision when nothing has been spent.
        let withoutSpend: IssuerDecision
        /// The most spend under which ``withoutSpend`` stands; nil when any spend leaves it.
        let standsUpTo: Int64?
        let decideAgain: @Sendable (Int64) -> IssuerDecision

        /// The decision once the card has spent `spentSoFar`.
        public func decision(spentSoFar: Int64) -> IssuerDecision {
            // A negative spend (more refunded than spent) frees balance: decide again.
            if spentSoFar < 0 { return decideAgain(spentSoFar) }
            if let standsUpTo, spentSoFar > standsUpTo { return decideAgain(spentSoFar) }
            return withoutSpend
        }
    }

    /// The UTC year and month of `date`, to compare with the card's expiry.
    static func utcYearMonth(of date: Date) -> (year: Int, month: Int) {
        let fields = UTCDate(date)
        return (Int(fields.year), Int(fields.month))
    }

    /// Decides on a verified request, in this order:
    ///
    /// 1. `14` the PAN fails the Luhn check or the service code is not three digits;
    /// 2. `13` the amount is not positive, or differs from 9F02 or the currency from 5F2A;
    /// 3. the amount's ``SandboxScenario`` (`05`, `51`, `62`, `54`, `13`, `14`, `55`);
    /// 4. `62` the card is blocked (the CSU also blocks its chip application);
    /// 5. `54` the card has expired in `year`/`month`;
    /// 6. `57` the service code restricts the card to ATMs or cash;
    /// 7. `75` the chip reports the PIN try limit exceeded, `55` a failed or mismatched PIN (a
    ///    bypassed PIN is not refused: the cardholder signs instead);
    /// 8. in the card's currency, `51` when the amount exceeds balance − `spentSoFar`, or `10`
    ///    for what is left when `allowPartial` and something is left;
    /// 9. `00`.
    ///
    /// Approvals and declines of chip requests both carry tag 91 (ARPC and CSU); approvals a
    /// 6-character authorization code derived from the request.
    public func decide(
        _ v: VerifiedAuthorization, amount: Int64, currency: Currency, year: Int, month: Int,
        allowPartial: Bool, spentSoFar: Int64
    ) -> IssuerDecision {
        let card = v.card
        let service = ServiceCode(card.serviceCode)
        var approvedAmount = amount
        let (code, reason): (String, String) = {
            if !card.pan.isLuhnValid || service == nil { return ("14", "invalid card number") }
            if amount <= 0 { return ("13", "the amount is not positive") }
            if let emvAmount = v.amount, emvAmount != amount {
                return ("13", "the amount differs from the card's 9F02")
            }
            if let code = v.currencyCode, code != currency.numericCode {
                return ("13", "the currency differs from the card's 5F2A")
            }
            if let scenario = SandboxScenario.forAmount(minor: amount), let code = scenario.issuerResponseCode
            {
                return (code, "sandbox scenario \(scenario)")
            }
            if card.behaviours.blocked { return ("62", "the card is blocked") }
            if card.isExpired(atYear: year, month: month) { return ("54", "the card has expired") }
            if let service, service.digits.2 == 3 || service.digits.2 == 4 {
                return ("57", "the service code does not allow this transaction")
            }
            if let cvr = v.cardVerificationResults {
                if cvr.pinTryLimitExceeded { return ("75", "PIN try limit exceeded") }
                if cvr.offlinePINFailed || cvr.onlinePINMismatch { return ("55", "wrong PIN") }
            }
            if currency == card.currency {
                let available = max(0, card.balance - spentSoFar)
                if amount > available {
                    if allowPartial, available > 0 {
                        approvedAmount = available
                        return ("10", "partially approved: balance left")
                    }
                    return ("51", "insufficient funds")
                }
            }
            return ("00", "approved")
        }()
        let approved = code == "00" || code == "10"
        let csu = CardStatusUpdate(
            approved: approved, blockApplication: code == "62" && card.behaviours.blocked)
        var tag91: [UInt8]?
        if let arqc = v.arqc, let key = v.sessionKey {
            tag91 = try? ARPC.issuerAuthenticationData(arqc: arqc, csu: csu.bytes, sessionKey: key)
        }
        return IssuerDecision(
            responseCode: code, approvedAmount: approved ? approvedAmount : 0,
            authorizationCode: approved ? SandboxIssuer.authorizationCode(v, amount: approvedAmount) : nil,
            issuerAuthenticationData: tag91, cardStatusUpdate: csu, reason: reason)
    }

    /// Six upper-case letters and digits derived from the KSN, the ARQC and the amount, so that
    /// the same request always gets the same code.
    static func authorizationCode(_ v: VerifiedAuthorization, amount: Int64) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let amountBytes = (0..<8).map { UInt8(truncatingIfNeeded: amount >> ($0 * 8)) }
        for byte in v.ksn.bytes + (v.arqc ?? []) + amountBytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var code = ""
        for _ in 0..<6 {
            code.append(alphabet[Int(hash % 36)])
            hash /= 36
        }
        return code
    }

    /// Whether `masked` shows the PAN's first six and last four digits (any mask characters).
    static func maskedPAN(_ masked: String, matches pan: PAN) -> Bool {
        let digits = pan.unmaskedDigits
        guard masked.count == digits.count else { return false }
        return zip(masked, digits).allSatisfy { shown, digit in !shown.isNumber || shown == digit }
            && masked.suffix(4) == digits.suffix(4)
    }

    /// The value of `tag` (its first occurrence) through `decode`, or `nil` when the tag is
    /// absent.
    /// - Throws: ``SandboxIssuerError/Kind/malformedEMVData`` naming the tag when the value
    ///   does not decode.
    static func value<T>(
        _ tag: EMVTag, in tree: TLVTree, maskedPAN: String,
        _ decode: (ArraySlice<UInt8>) throws(EMVValueError) -> T
    ) throws(SandboxIssuerError) -> T? {
        guard let bytes = tree[tag] else { return nil }
        do {
            return try decode(bytes)
        } catch {
            throw SandboxIssuerError(.malformedEMVData, "\(tag.hex): \(error)", maskedPAN: maskedPAN)
        }
    }
}
