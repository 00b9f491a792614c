import CardCrypto
import EMV
import MPOSCore
@testable import ReaderSimulator
import SandboxCards
import Testing

/// The kernel against the sandbox issuer, card by card.
@Suite(.timeLimit(.minutes(2))) struct KernelRoundTripTests {
    static let approvingChipCards = [
        "visa-credit", "visa-debit", "mastercard-2series", "maestro-mastercard", "amex", "discover", "jcb",
        "unionpay", "pin-required", "signature", "contactless", "contactless-signature",
    ]

    @Test(arguments: approvingChipCards)
    func chipCardsAreApprovedOnlineWithAVerifiedARPC(id: String) throws {
        var driver = try KernelDriver(id)
        let run = try driver.run(12_345)
        let outcome = try #require(run.outcome, "\(id): \(String(describing: run.failure))")
        #expect(run.decision?.responseCode == "00")
        #expect(outcome.reason == .approvedOnline)
        #expect(outcome.cryptogramType == .tc)
        #expect(outcome.approved && !outcome.needsReversal)
        let tvr = try TerminalVerificationResults(outcome.tvr)
        #expect(!tvr.contains(.issuerAuthenticationFailed))
        let tsi = try TransactionStatusInformation(outcome.tsi)
        #expect(tsi.contains(.issuerAuthenticationPerformed))
        #expect(run.verified?.atc == 1)
    }

    @Test(arguments: [
        "visa-credit", "visa-debit", "mastercard-2series", "jcb", "contactless", "contactless-signature",
    ])
    func contactlessCardsAreApprovedUnderAndOverTheirCVMLimit(id: String) throws {
        let card = try #require(SandboxCards.card(id: id))
        let limit = try #require(card.behaviours.contactlessCVMLimit)
        var driver = try KernelDriver(id)
        let under = try driver.run(limit, .contactless)
        #expect(under.outcome?.approved == true)
        #expect(under.prompts.isEmpty)
        #expect(under.request?.cvm == .notRequired)
        let over = try driver.run(limit + 1, .contactless)
        #expect(over.outcome?.approved == true)
        if card.cvm == .signature {
            #expect(over.request?.cvm == .signature)
            #expect(over.request?.signatureRequired == true)
        } else {
            #expect(
                over.prompts == [
                    .enterPIN(PINRequest(online: true, triesRemaining: nil, afterWrongPIN: false))
                ])
            #expect(over.request?.cvm == .pin)
        }
        #expect(over.verified?.atc == 2)
    }

    @Test func atcIncrementsOncePerTransaction() throws {
        var driver = try KernelDriver("visa-credit")
        for expected: UInt16 in 1...4 {
            let run = try driver.run(2_500)
            #expect(run.verified?.atc == expected)
            #expect(run.outcome?.atc == expected)
        }
        #expect(driver.kernel.card.atc == 4)
    }

    @Test func authorizationDataHasTheTagsAndNoClearCardData() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(4_321)
        let request = try #require(run.request)
        let tree = try TLVTree(decoding: request.emvData)
        let required: [EMVTag] = [
            0x9F26, 0x9F27, 0x9F10, 0x9F36, 0x9F37, 0x95, 0x9A, 0x9C, 0x9F02, 0x5F2A, 0x82, 0x84, 0x9F1A,
            0x9F34,
            0x9F33, 0x9F35, 0x5F34, 0x50,
        ]
        for tag in required { #expect(tree[tag] != nil, "\(tag)") }
        #expect(tree[0x5A] == nil)
        #expect(tree[0x57] == nil)
        let card = try #require(SandboxCards.card(id: "visa-credit"))
        #expect(!Hex.encode(request.emvData).contains(card.pan.unmaskedDigits))
        #expect(request.maskedPAN == "411111******1111")
        #expect(request.ksn.count == 12)
        #expect(Array(request.ksn.prefix(4)) == SandboxKeys.bdkID)
        #expect(request.aid == "A0000000031010")
        #expect(request.applicationLabel == "VISA CREDIT")
        #expect(request.entryMode == .chip)
        #expect(request.expiry == "4912")
        #expect(Array(tree[0x9F02]!) == [0, 0, 0, 0, 0x43, 0x21])
        #expect(Array(tree[0x5F2A]!) == [0x09, 0x78])
        #expect(Array(tree[0x9A]!) == [0x26, 0x11, 0x18])
        #expect(Array(tree[0x9F27]!) == [0x80])
    }

    @Test func eachTransactionUsesANewKSN() throws {
        var driver = try KernelDriver("visa-credit")
        let first = try driver.run(2_500).request?.ksn
        let second = try driver.run(2_500).request?.ksn
        #expect(first != nil && first != second)
    }

    @Test func dualApplicationChipAsksTheCardholderToChoose() throws {
        var driver = try KernelDriver("maestro-mastercard")
        let run = try driver.run(2_500, application: 1)
        guard case .selectApplication(let apps) = run.prompts.first else {
            Issue.record("no application selection")
            return
        }
        #expect(apps.map(\.label) == ["MASTERCARD", "MAESTRO"])
        #expect(run.request?.aid == "A0000000043060")
        #expect(run.outcome?.approved == true)
        // A tap takes the highest priority without asking.
        var tap = try KernelDriver("maestro-mastercard")
        #expect(
            tap.kernel.start(KernelDriver.transaction(500, .contactless)) == .failed(.interfaceNotSupported))
    }

    @Test func expiredCardGoesOnlineAndIsDeclined54() throws {
        var driver = try KernelDriver("expired")
        let run = try driver.run(2_500)
        #expect(run.decision?.responseCode == "54")
        let outcome = try #require(run.outcome)
        #expect(outcome.reason == .declinedByIssuer)
        #expect(outcome.cryptogramType == .aac)
        #expect(!outcome.needsReversal)
        let request = try #require(run.request)
        let tvr = try TerminalVerificationResults(try #require(try TLVTree(decoding: request.emvData)[0x95]))
        #expect(tvr.contains(.expiredApplication))
    }

    @Test func blockedCardIsDeclined62AndThenBlockedOnTheChip() throws {
        var driver = try KernelDriver("blocked")
        let run = try driver.run(2_500)
        #expect(run.decision?.responseCode == "62")
        #expect(run.outcome?.cryptogramType == .aac)
        #expect(driver.kernel.card.isApplicationBlocked)
        let again = try driver.run(2_500)
        #expect(again.failure == .cardBlocked)
        #expect(again.failure?.statusCode == .cardBlocked)
    }

    @Test func approvesOfflineCardGivesATCAtTheFirstGenerateAC() throws {
        var driver = try KernelDriver("approves-offline")
        let run = try driver.run(5_000)
        let outcome = try #require(run.outcome)
        #expect(run.decision == nil)
        #expect(outcome.reason == .approvedOffline)
        #expect(outcome.cryptogramType == .tc)
        #expect(!outcome.hostApproved)
        // The stored TC still verifies at the issuer when forwarded.
        let request = try #require(run.request)
        let verified = try driver.issuer.verify(
            emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn)
        #expect(verified.cardVerificationResults?.firstGenerateAC == .tc)
        // Over the floor limit it goes online.
        let online = try driver.run(15_000)
        #expect(online.decision?.responseCode == "00")
        #expect(online.outcome?.reason == .approvedOnline)
    }

    @Test func otherCardsGoOnlineEvenUnderTheFloorLimit() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(500)
        #expect(run.decision != nil)
        #expect(run.outcome?.reason == .approvedOnline)
    }

    @Test func secondGenerateACDeclineAfterHostApprovalNeedsAReversal() throws {
        var driver = try KernelDriver("declines-second-gen-ac")
        let run = try driver.run(2_500)
        #expect(run.decision?.responseCode == "00")
        let outcome = try #require(run.outcome)
        #expect(outcome.reason == .declinedByCard)
        #expect(outcome.cryptogramType == .aac)
        #expect(outcome.needsReversal)
    }

    @Test func scenarioDeclineIsAnIssuerDecline() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(1_000)
        #expect(run.decision?.responseCode == "05")
        #expect(run.outcome?.reason == .declinedByIssuer)
        #expect(run.outcome?.approved == false)
    }

    @Test func twentyIsCancelledAndThirtyAsksForASignature() throws {
        var driver = try KernelDriver("visa-credit")
        #expect(try driver.run(2_000).failure == .cancelled)
        let run = try driver.run(3_000)
        #expect(run.prompts.isEmpty)
        #expect(run.request?.cvm == .signature)
        #expect(run.request?.signatureRequired == true)
        #expect(run.outcome?.approved == true)
    }

    @Test func insufficientFundsDeclines51() throws {
        var driver = try KernelDriver("visa-debit")
        let run = try driver.run(60_000)
        #expect(run.decision?.responseCode == "51")
        #expect(run.outcome?.approved == false)
    }
}

/// PIN handling on the chip.
@Suite(.timeLimit(.minutes(2))) struct KernelPINTests {
    @Test func wrongOfflinePINsCountDownAndThenTheLimitIsExceeded() throws {
        var driver = try KernelDriver("pin-required")
        let retry = try driver.run(2_500, pins: ["0000", "1234"])
        #expect(
            retry.prompts == [
                .enterPIN(PINRequest(online: false, triesRemaining: 3, afterWrongPIN: false)),
                .enterPIN(PINRequest(online: false, triesRemaining: 2, afterWrongPIN: true)),
            ])
        #expect(retry.outcome?.approved == true)
        #expect(driver.kernel.card.pinTriesRemaining == 3)

        let blocked = try driver.run(2_500, pins: ["1111", "2222", "3333"])
        #expect(blocked.prompts.count == 3)
        #expect(blocked.decision?.responseCode == "75")
        #expect(blocked.outcome?.approved == false)
        #expect(driver.kernel.card.pinTriesRemaining == 0)
        #expect(blocked.request?.cvm == .failed)

        // PIN entry stays blocked: no prompt, declined again.
        let after = try driver.run(2_500)
        #expect(after.prompts.isEmpty)
        #expect(after.decision?.responseCode == "75")
    }

    @Test func wrongOnlinePINIsDeclined55() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(2_500, pins: ["9999"])
        #expect(run.decision?.responseCode == "55")
        #expect(run.outcome?.approved == false)
    }

    /// The Heft seed: OK with no PIN digits "will trigger signature fallback".
    @Test func bypassedPINFallsBackToASignatureAndIsApproved() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(2_500, pins: [nil])
        #expect(run.decision?.responseCode == "00")
        let outcome = try #require(run.outcome)
        #expect(outcome.approved)
        #expect(outcome.authorization.cvm == .signature)
        let tvr = try TerminalVerificationResults(outcome.tvr)
        #expect(tvr.contains(.pinNotEntered))
        #expect(!tvr.contains(.cardholderVerificationFailed))
    }
}

/// The host's answer must authenticate.
@Suite(.timeLimit(.minutes(2))) struct KernelIssuerAuthenticationTests {
    @Test func aTamperedARPCMakesTheCardDecline() throws {
        var driver = try KernelDriver("signature")
        guard case .goOnline(let request) = driver.kernel.start(KernelDriver.transaction(2_500)) else {
            Issue.record("did not go online")
            return
        }
        let verified = try driver.issuer.verify(
            emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn)
        let decision = driver.issuer.decide(
            verified, amount: 2_500, currency: .eur, now: KernelDriver.now, allowPartial: false, spentSoFar: 0
        )
        var tag91 = try #require(decision.issuerAuthenticationData)
        tag91[0] ^= 0x01
        guard
            case .completed(let outcome) = driver.kernel.complete(
                hostApproved: true, responseCode: "00", issuerAuthenticationData: tag91)
        else {
            Issue.record("did not complete")
            return
        }
        #expect(outcome.reason == .issuerAuthenticationFailed)
        #expect(outcome.needsReversal)
        #expect(try TerminalVerificationResults(outcome.tvr).contains(.issuerAuthenticationFailed))
    }

    @Test func aDeclineRelabelledAsApprovalIsRefusedByTheCard() throws {
        var driver = try KernelDriver("signature")
        guard case .goOnline(let request) = driver.kernel.start(KernelDriver.transaction(1_000)) else {
            Issue.record("did not go online")
            return
        }
        let verified = try driver.issuer.verify(
            emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn)
        let decision = driver.issuer.decide(
            verified, amount: 1_000, currency: .eur, now: KernelDriver.now, allowPartial: false, spentSoFar: 0
        )
        #expect(decision.responseCode == "05")
        guard
            case .completed(let outcome) = driver.kernel.complete(
                hostApproved: true, responseCode: "00",
                issuerAuthenticationData: decision.issuerAuthenticationData)
        else {
            Issue.record("did not complete")
            return
        }
        #expect(outcome.approved == false)
        #expect(outcome.reason == .issuerAuthenticationFailed)
    }

    @Test func anApprovalWithoutTag91IsNotTrusted() throws {
        var driver = try KernelDriver("signature")
        guard case .goOnline = driver.kernel.start(KernelDriver.transaction(2_500)) else {
            Issue.record("did not go online")
            return
        }
        guard
            case .completed(let outcome) = driver.kernel.complete(
                hostApproved: true, responseCode: "00", issuerAuthenticationData: nil)
        else {
            Issue.record("did not complete")
            return
        }
        #expect(!outcome.approved)
        #expect(outcome.needsReversal)
    }

    @Test func callsOutOfOrderAreRefused() throws {
        var driver = try KernelDriver("signature")
        #expect(
            driver.kernel.complete(hostApproved: true, responseCode: "00", issuerAuthenticationData: nil)
                == .failed(.invalidState))
        #expect(driver.kernel.enterPIN("1234") == .failed(.invalidState))
        #expect(driver.kernel.selectApplication(at: 0) == .failed(.invalidState))
    }
}

/// Stripe, fallback and interface rules.
@Suite(.timeLimit(.minutes(2))) struct KernelInterfaceTests {
    @Test func magstripeOnlyCardIsSwipedAndApprovedWithoutACryptogram() throws {
        var driver = try KernelDriver("magstripe-only")
        #expect(try driver.run(2_500, .chip).failure == .interfaceNotSupported)
        let run = try driver.run(2_500, .magstripe)
        let outcome = try #require(run.outcome)
        #expect(outcome.approved)
        #expect(outcome.cryptogramType == nil)
        #expect(run.verified?.arqc == nil)
        #expect(run.verified?.cardData.track2Equivalent != nil)
        #expect(run.request?.cvm == .signature)
        let tree = try TLVTree(decoding: try #require(run.request).emvData)
        #expect(tree[0x9F26] == nil && tree[0x57] == nil && tree[0x5A] == nil)
        #expect(Array(tree[0x9F39]!) == [0x90])
    }

    @Test func chipCardSwipedIsToldToUseTheChip() throws {
        var driver = try KernelDriver("visa-credit")
        let run = try driver.run(2_500, .magstripe)
        #expect(run.failure == .useChip)
        #expect(run.failure?.statusCode == .iccCardSwiped)
        #expect(try driver.run(2_500, .magstripeFallback).failure == .useChip)
    }

    @Test func unreadableChipFallsBackToTheStripe() throws {
        var driver = try KernelDriver("chip-fallback")
        #expect(try driver.run(2_500, .chip).failure == .chipUnreadable)
        let run = try driver.run(2_500, .magstripeFallback)
        #expect(run.outcome?.approved == true)
        #expect(run.request?.entryMode == .magstripeFallback)
        #expect(run.verified?.posEntryMode == 0x80)
    }

    @Test func tappingAChipOnlyCardIsRefused() throws {
        var driver = try KernelDriver("pin-required")
        #expect(try driver.run(2_500, .contactless).failure == .interfaceNotSupported)
        #expect(try driver.run(2_500, .manual).failure == .interfaceNotSupported)
    }
}
