import CardCrypto
import EMV
import Foundation
import MPOSCore
import SandboxCards
import Testing

/// A chip's authorization request built by hand, the way the simulated reader builds it.
@Suite(.timeLimit(.minutes(2)))
struct ChipRequest {
    var emvData: [UInt8]
    var sealed: [UInt8]
    var ksn: [UInt8]
    var arqc: [UInt8]

    static func make(
        _ card: SandboxCard, amount: Int64, currency: Currency = .eur, atc: UInt16 = 1,
        cvr: CardVerificationResults = CardVerificationResults(firstGenerateAC: .arqc),
        counter: UInt32 = 1, extra: [TLV] = []
    ) throws -> ChipRequest {
        var values: [EMVTag: [UInt8]] = [
            0x9F02: bcd(amount, bytes: 6), 0x9F03: [0, 0, 0, 0, 0, 0], 0x9F1A: [0x05, 0x28],
            0x95: [0x80, 0, 0, 0, 0], 0x5F2A: bcd(Int64(currency.numericCode), bytes: 2),
            0x9A: [0x26, 0x11, 0x23], 0x9C: [0x00], 0x9F37: [0x12, 0x34, 0x56, 0x78], 0x82: [0x19, 0x80],
            0x9F36: [UInt8(atc >> 8), UInt8(atc & 0xFF)], 0x9F10: cvr.issuerApplicationData,
        ]
        values[0x5F34] = [card.panSequenceNumberBCD]
        let input = try CryptogramInput(values: values)
        let key = try EMVKeyDerivation.sessionKey(
            iccMasterKey: SandboxCards.iccMasterKey(for: card), atc: atc)
        let arqc = try generateCryptogram(input: input, sessionKey: key)
        values[0x9F26] = arqc
        values[0x9F27] = [0x80]
        let objects = values.keys.sorted().map { TLV($0, value: values[$0]!) } + extra
        var reader = try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 7), counter: counter)
        let (ksn, sealed) = try CardDataEnvelope.seal(
            CardDataPlaintext(card: card).encoded(), reader: &reader)
        return ChipRequest(emvData: try TLV.encode(objects), sealed: sealed, ksn: ksn.bytes, arqc: arqc)
    }

    static func bcd(_ value: Int64, bytes: Int) -> [UInt8] {
        var digits = String(value)
        digits = String(repeating: "0", count: bytes * 2 - digits.count) + digits
        let d = digits.utf8.map { $0 - 48 }
        return stride(from: 0, to: d.count, by: 2).map { d[$0] << 4 | d[$0 + 1] }
    }
}

/// The sandbox issuer: verification of the request and the decision.
@Suite(.timeLimit(.minutes(2))) struct IssuerTests {
    let issuer = SandboxIssuer()
    let november2026 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 UTC

    func card(_ id: String) throws -> SandboxCard { try #require(SandboxCards.card(id: id)) }

    @Test func verifiesAGoodRequest() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250, atc: 42)
        let verified = try issuer.verify(
            emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn,
            maskedPAN: card.pan.masked)
        #expect(verified.card.id == "visa-credit")
        #expect(verified.atc == 42)
        #expect(verified.arqc == request.arqc)
        #expect(verified.amount == 1250)
        #expect(verified.currencyCode == 978)
        #expect(verified.cardVerificationResults?.firstGenerateAC == .arqc)
    }

    @Test func rejectsATamperedARQC() throws {
        let card = try card("visa-credit")
        var request = try ChipRequest.make(card, amount: 1250)
        let tree = try TLVTree(decoding: request.emvData)
        let at = try #require(tree.first(0x9F26)).valueRange.lowerBound
        request.emvData[at] ^= 0x01
        #expect(throws: SandboxIssuerError(.badARQC, "")) {
            try issuer.verify(emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
        }
    }

    @Test func rejectsATamperedAmountUnderTheSameARQC() throws {
        let card = try card("visa-credit")
        var request = try ChipRequest.make(card, amount: 1250)
        let tree = try TLVTree(decoding: request.emvData)
        let at = try #require(tree.first(0x9F02)).valueRange.upperBound - 1
        request.emvData[at] = 0x01
        #expect(throws: SandboxIssuerError(.badARQC, "")) {
            try issuer.verify(emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
        }
    }

    @Test func rejectsWrongCiphertextAndWrongKSN() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250)
        var sealed = request.sealed
        sealed[0] ^= 0xFF
        #expect(throws: SandboxIssuerError(.badCiphertext, "")) {
            try issuer.verify(emvData: request.emvData, encryptedCardData: sealed, ksn: request.ksn)
        }
        var ksn = request.ksn
        ksn[11] = 2
        #expect(throws: SandboxIssuerError(.badCiphertext, "")) {
            try issuer.verify(emvData: request.emvData, encryptedCardData: request.sealed, ksn: ksn)
        }
        #expect(throws: SandboxIssuerError(.invalidKSN, "")) {
            try issuer.verify(emvData: request.emvData, encryptedCardData: request.sealed, ksn: [1, 2, 3])
        }
        #expect(throws: SandboxIssuerError(.badCiphertext, "")) {
            try issuer.verify(
                emvData: request.emvData, encryptedCardData: Array(sealed.prefix(10)), ksn: request.ksn)
        }
    }

    @Test func rejectsAnUnknownCardWithAMaskedPANOnly() throws {
        let stranger = SandboxCard(
            id: "stranger", summary: "not in the catalog", pan: try #require(PAN("4242424242424242")),
            cardholderName: "X/Y", scheme: .visa, applications: [.visa()], interfaces: [.chip], cvm: .noCVM)
        let request = try ChipRequest.make(stranger, amount: 500)
        do {
            _ = try issuer.verify(
                emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
            Issue.record("verified an unknown card")
        } catch {
            #expect(error.kind == .unknownCard)
            #expect(error.maskedPAN == "424242******4242")
            #expect(!error.description.contains("4242424242424242"))
        }
    }

    @Test func rejectsClearDataThatDisagreesWithTheCardData() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250)
        #expect(throws: SandboxIssuerError(.cardDataMismatch, "")) {
            try issuer.verify(
                emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn,
                maskedPAN: "400005******5556")
        }
        let wrongPSN = try TLV.encode(
            try TLVTree(decoding: request.emvData).objects.map {
                $0.tag == 0x5F34 ? TLV(0x5F34, value: [0x02]) : $0
            })
        #expect(throws: SandboxIssuerError(.cardDataMismatch, "")) {
            try issuer.verify(emvData: wrongPSN, encryptedCardData: request.sealed, ksn: request.ksn)
        }
    }

    @Test func rejectsMissingCryptogramData() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250)
        let withoutATC = try TLV.encode(
            try TLVTree(decoding: request.emvData).objects.filter { $0.tag != 0x9F36 })
        #expect(throws: SandboxIssuerError(.missingEMVData, "")) {
            try issuer.verify(emvData: withoutATC, encryptedCardData: request.sealed, ksn: request.ksn)
        }
        #expect(throws: SandboxIssuerError(.malformedEMVData, "")) {
            try issuer.verify(
                emvData: [0x9F, 0x26, 0x08, 0x00], encryptedCardData: request.sealed, ksn: request.ksn)
        }
    }

    /// A swipe carries no cryptogram, so nothing but the issuer's own checks stands between
    /// its clear EMV data and the decision.
    func swipe(_ emvData: [UInt8]) throws -> VerifiedAuthorization {
        var reader = try DUKPTReader(
            bdk: SandboxKeys.bdk, initialKeyID: SandboxKeys.initialKeyID(derivationID: 9), counter: 3)
        let (ksn, sealed) = try CardDataEnvelope.seal(
            CardDataPlaintext(card: card("magstripe-only")).encoded(), reader: &reader)
        return try issuer.verify(emvData: emvData, encryptedCardData: sealed, ksn: ksn.bytes)
    }

    @Test func aSwipesAmountAndCurrencyMustBeBCDNumbers() throws {
        let amount = TLV(0x9F02, value: ChipRequest.bcd(500, bytes: 6))
        let verified = try swipe(TLV.encode([amount, TLV(0x5F2A, value: [0x09, 0x78])]))
        #expect(verified.amount == 500 && verified.currencyCode == 978)
        // A 20-digit 5F2A used to overflow Int and trap the gateway.
        let malformed: [[TLV]] = [
            [amount, TLV(0x5F2A, value: [UInt8](repeating: 0x99, count: 10))],
            [amount, TLV(0x5F2A, value: [0x09, 0x7A])],
            [amount, TLV(0x5F2A, value: [0x09])],
            [TLV(0x9F02, value: [0, 0, 0, 0, 0x05, 0x0F])],
            [TLV(0x9F02, value: [UInt8](repeating: 0x99, count: 12))],
        ]
        for objects in malformed {
            #expect(throws: SandboxIssuerError(.malformedEMVData, ""), "\(objects)") {
                try swipe(TLV.encode(objects))
            }
        }
    }

    func decide(
        _ id: String, amount: Int64,
        cvr: CardVerificationResults = CardVerificationResults(firstGenerateAC: .arqc),
        allowPartial: Bool = false, spent: Int64 = 0
    ) throws -> IssuerDecision {
        let card = try card(id)
        let request = try ChipRequest.make(card, amount: amount, cvr: cvr)
        let verified = try issuer.verify(
            emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
        return issuer.decide(
            verified, amount: amount, currency: .eur, now: november2026, allowPartial: allowPartial,
            spentSoFar: spent)
    }

    @Test func approvesWithACodeAndAnARPCTheCardAccepts() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250, atc: 9)
        let verified = try issuer.verify(
            emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
        let decision = issuer.decide(
            verified, amount: 1250, currency: .eur, now: november2026, allowPartial: false, spentSoFar: 0)
        #expect(decision.responseCode == "00")
        #expect(decision.isApproved)
        #expect(decision.approvedAmount == 1250)
        #expect(decision.authorizationCode?.count == 6)
        let tag91 = try #require(decision.issuerAuthenticationData)
        let key = try EMVKeyDerivation.sessionKey(iccMasterKey: SandboxCards.iccMasterKey(for: card), atc: 9)
        #expect(ARPC.verify(issuerAuthenticationData: tag91, arqc: request.arqc, sessionKey: key))
        #expect(CardStatusUpdate(issuerAuthenticationData: tag91)?.approved == true)
        let response = try TLVTree(decoding: decision.responseEMVData)
        #expect(Array(response[0x8A]!) == Array("00".utf8))
        #expect(response[0x91] != nil)
        // Same request, same code.
        let again = issuer.decide(
            verified, amount: 1250, currency: .eur, now: november2026, allowPartial: false, spentSoFar: 0)
        #expect(again.authorizationCode == decision.authorizationCode)
    }

    @Test func declinesCarryAnARPCAndNoCode() throws {
        let decision = try decide("visa-credit", amount: 1000)
        #expect(decision.responseCode == "05")
        #expect(!decision.isApproved)
        #expect(decision.authorizationCode == nil)
        #expect(decision.approvedAmount == 0)
        #expect(decision.issuerAuthenticationData != nil)
        #expect(decision.cardStatusUpdate.approved == false)
    }

    @Test(arguments: [
        ("visa-credit", Int64(2_124), "51"), ("visa-credit", 2_125, "62"), ("visa-credit", 2_126, "54"),
        ("visa-credit", 2_127, "13"), ("visa-credit", 2_128, "14"), ("visa-credit", 2_134, "55"),
        ("visa-credit", 2_000, "00"), ("visa-credit", 3_000, "00"),
    ])
    func scenarioAmountsDecide(id: String, amount: Int64, code: String) throws {
        #expect(try decide(id, amount: amount).responseCode == code)
    }

    @Test func blockedExpiredAndBalanceRules() throws {
        let blocked = try decide("blocked", amount: 500)
        #expect(blocked.responseCode == "62")
        #expect(blocked.cardStatusUpdate.blockApplication)
        #expect(try decide("expired", amount: 500).responseCode == "54")
        #expect(try decide("visa-debit", amount: 50_001).responseCode == "51")
        #expect(try decide("visa-debit", amount: 50_000).responseCode == "00")
        #expect(try decide("visa-debit", amount: 30_000, spent: 25_000).responseCode == "51")
        let partial = try decide("visa-debit", amount: 60_000, allowPartial: true, spent: 10_000)
        #expect(partial.responseCode == "10")
        #expect(partial.isApproved && partial.isPartial)
        #expect(partial.approvedAmount == 40_000)
        #expect(
            try decide("visa-debit", amount: 60_000, allowPartial: true, spent: 50_000).responseCode == "51")
    }

    /// A decision worked out before the spend is known finishes exactly as a decision made
    /// with it, for every card, on both sides of each card's balance, with and without
    /// partial approval.
    @Test(arguments: [false, true])
    func aPendingDecisionFinishesAsTheFullDecision(allowPartial: Bool) throws {
        for card in SandboxCards.all {
            for amount in [Int64(500), 2_124, 2_134, 50_000, 50_001, 60_000] {
                let request = try ChipRequest.make(card, amount: amount)
                let verified = try issuer.verify(
                    emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
                let pending = issuer.pendingDecision(
                    verified, amount: amount, currency: .eur, now: november2026, allowPartial: allowPartial)
                for spent in [Int64(-1_000), 0, 1, 9_999, card.balance - amount, card.balance - amount + 1,
                    card.balance, card.balance + 1]
                {
                    let full = issuer.decide(
                        verified, amount: amount, currency: .eur, now: november2026,
                        allowPartial: allowPartial, spentSoFar: spent)
                    #expect(
                        pending.decision(spentSoFar: spent) == full,
                        "\(card.id) amount \(amount) spent \(spent)")
                }
            }
        }
    }

    @Test func chipPINResultsDecide() throws {
        var failed = CardVerificationResults(firstGenerateAC: .arqc)
        failed.offlinePINPerformed = true
        failed.offlinePINFailed = true
        #expect(try decide("pin-required", amount: 700, cvr: failed).responseCode == "55")
        failed.pinTryLimitExceeded = true
        #expect(try decide("pin-required", amount: 700, cvr: failed).responseCode == "75")
        var mismatch = CardVerificationResults(firstGenerateAC: .arqc)
        mismatch.onlinePINMismatch = true
        #expect(try decide("visa-credit", amount: 700, cvr: mismatch).responseCode == "55")
    }

    @Test func amountOrCurrencyDifferentFromTheCardsIsInvalid() throws {
        let card = try card("visa-credit")
        let request = try ChipRequest.make(card, amount: 1250)
        let verified = try issuer.verify(
            emvData: request.emvData, encryptedCardData: request.sealed, ksn: request.ksn)
        #expect(
            issuer.decide(
                verified, amount: 1251, currency: .eur, now: november2026, allowPartial: false, spentSoFar: 0
            )
            .responseCode == "13")
        #expect(
            issuer.decide(
                verified, amount: 1250, currency: .usd, now: november2026, allowPartial: false, spentSoFar: 0
            )
            .responseCode == "13")
    }

    @Test func cvrRoundTripsThroughIssuerApplicationData() throws {
        var cvr = CardVerificationResults(firstGenerateAC: .tc, secondGenerateAC: .aac)
        cvr.offlinePINPerformed = true
        cvr.pinBypassed = true
        cvr.pinTriesRemaining = 2
        #expect(CardVerificationResults(issuerApplicationData: cvr.issuerApplicationData) == cvr)
        #expect(CardVerificationResults(issuerApplicationData: [0x06, 1, 2]) == nil)
    }
}
