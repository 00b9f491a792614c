import EMV
import Foundation
import MPOSCore
import ReaderLink
import SandboxCards
import Testing

@testable import ReaderSimulator

/// The reader's tip prompt (the Handpoint seed's `Tip input`, `EFT_TIP_INPUT 001C "Waiting for
/// gratuity"`): shown after the card is read and before the cryptogram, answered by the
/// scripted cardholder, and the card authorises the amount plus the tip.
@Suite(.timeLimit(.minutes(2)))
struct TipPromptTests {
    /// What the SDK saw of one transaction started with `tips`.
    struct Run {
        var events: [ReaderMessage] = []
        var authorization: AuthorizationRequest?
        var outcome: TransactionOutcome?
        var issuerCode: String?

        var statuses: [ReaderStatusCode] {
            events.compactMap { if case .statusReport(let report) = $0 { report.status } else { nil } }
        }
        var tips: [TipEntry] { events.compactMap { if case .tipEntered(let tip) = $0 { tip } else { nil } } }
        /// Where in the events the first message `matching` stands.
        func index(_ matching: (ReaderMessage) -> Bool) -> Int? { events.firstIndex(where: matching) }
    }

    /// Starts a sale of `amount` with the given tip options, answers the authorization with
    /// the sandbox issuer for `issuerAmount` (the amount the gateway would check the cryptogram
    /// against) and waits for the outcome.
    static func sale(
        _ connection: ReaderConnection, amount: Int64, percentages: [UInt8] = [], amounts: [Int64] = [],
        custom: Bool = false, issuerAmount: (Int64) -> Int64
    ) async throws -> Run {
        let id = UUID().uuidString
        var run = Run()
        var events = connection.events.makeAsyncIterator()
        let answer = try await connection.request(
            .startTransaction(
                StartTransaction(
                    transactionID: id, kind: .sale, amountMinorUnits: amount, currency: .alphabetic("EUR"),
                    tipAmounts: amounts, tipPercentages: percentages, allowsCustomTip: custom)))
        #expect(answer == .ack)
        while let event = await events.next() {
            run.events.append(event)
            switch event {
            case .authorizationRequest(let request):
                run.authorization = request
                let issuer = SandboxIssuer()
                let verified = try issuer.verify(
                    emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn,
                    maskedPAN: request.maskedPAN)
                let tip = run.tips.first?.tipAmountMinorUnits ?? 0
                let decision = issuer.decide(
                    verified, amount: issuerAmount(tip), currency: .eur, year: 2026, month: 11,
                    allowPartial: false, spentSoFar: 0)
                run.issuerCode = decision.responseCode
                _ = try await connection.request(
                    .hostResponse(
                        HostResponse(
                            transactionID: id, approved: decision.isApproved,
                            authorizationResponseCode: decision.responseCode,
                            authorizationCode: decision.authorizationCode,
                            issuerAuthenticationData: decision.issuerAuthenticationData ?? [])))
            case .transactionOutcome(let outcome):
                run.outcome = outcome
                return run
            default: break
            }
        }
        return run
    }

    /// The Amount, Authorised (9F02) the card's cryptogram covers, in minor units.
    static func authorisedAmount(_ request: AuthorizationRequest?) throws -> Int64 {
        let tree = try TLVTree(decoding: try #require(request).emvData)
        let bcd = try #require(tree[0x9F02])
        return Int64(Hex.encode(bcd))!
    }

    @Test func theTipPromptComesAfterTheCardAndBeforeTheCryptogramWhichCoversTheTotal() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.tipChoice = .percentage(15) }
        let run = try await Self.sale(connection, amount: 42_00, percentages: [10, 15, 20]) { 42_00 + $0 }
        #expect(run.tips == [TipEntry(transactionID: run.tips.first?.transactionID ?? "", tipAmountMinorUnits: 6_30, percentage: 15)])
        let statuses = run.statuses
        let cardRead = try #require(statuses.firstIndex(of: .cardInserted))
        let tipInput = try #require(statuses.firstIndex(of: .tipInput))
        #expect(cardRead < tipInput)
        let tipEntered = try #require(run.index { if case .tipEntered = $0 { true } else { false } })
        let authorization = try #require(run.index { if case .authorizationRequest = $0 { true } else { false } })
        #expect(tipEntered < authorization)
        #expect(try Self.authorisedAmount(run.authorization) == 48_30)
        #expect(run.issuerCode == "00")
        #expect(run.outcome?.cryptogramType == .tc && run.outcome?.status == .success)
        await connection.close()
    }

    @Test func theTipStatusSaysWaitingForGratuityAndMayBeCancelled() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.tipChoice = .amount(2_00) }
        let run = try await Self.sale(connection, amount: 10_50, amounts: [1_00, 2_00]) { 10_50 + $0 }
        let report = try #require(
            run.events.compactMap { event -> StatusReport? in
                if case .statusReport(let report) = event, report.status == .tipInput { report } else { nil }
            }.first)
        #expect(report.message == "Waiting for gratuity" && report.cancelAllowed)
        #expect(run.tips.first?.tipAmountMinorUnits == 2_00 && run.tips.first?.percentage == nil)
        #expect(try Self.authorisedAmount(run.authorization) == 12_50)
        await connection.close()
    }

    @Test func anIssuerCheckingOnlyTheAmountRefusesATippedCryptogram() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.tipChoice = .percentage(10) }
        // The cryptogram covers 55.00; an issuer told 50.00 finds 9F02 differs.
        let run = try await Self.sale(connection, amount: 50_00, percentages: [10]) { _ in 50_00 }
        #expect(run.issuerCode == "13")
        #expect(run.outcome?.cryptogramType == .aac)
        await connection.close()
    }

    @Test func withoutTipOptionsThereIsNoPromptAndTheCardAuthorisesTheAmount() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired { $0.tipChoice = .percentage(15) }
        let run = try await Self.sale(connection, amount: 42_00) { 42_00 + $0 }
        #expect(!run.statuses.contains(.tipInput))
        #expect(run.tips.isEmpty)
        #expect(try Self.authorisedAmount(run.authorization) == 42_00)
        #expect(run.outcome?.cryptogramType == .tc)
        await connection.close()
    }

    @Test func noTipIsReportedAsZeroAndTheAmountStays() async throws {
        let (_, connection) = try await SimulatedReaderTests.paired()
        let run = try await Self.sale(connection, amount: 42_00, percentages: [10, 15]) { 42_00 + $0 }
        #expect(run.statuses.contains(.tipInput))
        #expect(run.tips.map(\.tipAmountMinorUnits) == [0])
        #expect(try Self.authorisedAmount(run.authorization) == 42_00)
        await connection.close()
    }

    @Test func cancellingAtTheTipPromptEndsTheSaleCancelledBeforeAnyAuthorization() async throws {
        let (reader, connection) = try await SimulatedReaderTests.paired { $0.tipChoice = .cancel }
        let run = try await Self.sale(connection, amount: 42_00, percentages: [10]) { 42_00 + $0 }
        #expect(run.authorization == nil)
        #expect(run.tips.isEmpty)
        #expect(run.outcome?.status == .userCancelled && run.outcome?.cryptogramType == .aac)
        #expect(await reader.logLines.contains { $0.contains("cancelled at the tip prompt") })
        await connection.close()
    }

    @Test func aChoiceSetOnTheRunningReaderAppliesToTheNextSale() async throws {
        let (reader, connection) = try await SimulatedReaderTests.paired()
        await reader.setTipChoice(.amount(7_77))
        let run = try await Self.sale(connection, amount: 20_01, custom: true) { 20_01 + $0 }
        #expect(run.tips.map(\.tipAmountMinorUnits) == [7_77])
        #expect(try Self.authorisedAmount(run.authorization) == 27_78)
        await connection.close()
    }
}

/// How a scripted choice becomes a tip for the prompt a start shows.
@Suite(.timeLimit(.minutes(1)))
struct TipChoiceTests {
    static func start(
        _ amount: Int64, percentages: [UInt8] = [], amounts: [Int64] = [], custom: Bool = false
    ) -> StartTransaction {
        StartTransaction(
            transactionID: "t", kind: .sale, amountMinorUnits: amount, currency: .alphabetic("EUR"),
            tipAmounts: amounts, tipPercentages: percentages, allowsCustomTip: custom)
    }

    @Test func aPercentageIsOfTheAmountRoundedHalfUp() {
        #expect(
            TipChoice.percentage(15).resolve(for: Self.start(3_33, percentages: [15]))
                == .tip(amount: 50, percentage: 15, note: nil))
        #expect(
            TipChoice.percentage(10).resolve(for: Self.start(4_04, percentages: [10]))
                == .tip(amount: 40, percentage: 10, note: nil))
    }

    @Test func aChoiceThePromptDoesNotOfferIsNoTip() {
        guard case .tip(0, nil, let note?) = TipChoice.percentage(25).resolve(for: Self.start(10_00, percentages: [10]))
        else {
            Issue.record("a percentage not offered was taken")
            return
        }
        #expect(note.contains("not offered"))
        guard case .tip(0, nil, _) = TipChoice.amount(3_00).resolve(for: Self.start(10_00, amounts: [1_00])) else {
            Issue.record("an amount not offered was taken without custom tips")
            return
        }
        #expect(TipChoice.amount(-1).resolve(for: Self.start(10_00, custom: true)) != .tip(amount: -1, percentage: nil, note: nil))
    }

    @Test func aCustomAmountIsTakenWhenAllowedAndTheTotalFits() {
        #expect(
            TipChoice.amount(3_00).resolve(for: Self.start(10_00, custom: true))
                == .tip(amount: 3_00, percentage: nil, note: nil))
        guard case .tip(0, nil, _) = TipChoice.amount(2).resolve(for: Self.start(TipChoice.maximumTotal - 1, custom: true))
        else {
            Issue.record("a tip past 12 digits was taken")
            return
        }
    }

    @Test func anAmountPastTwelveDigitsTakesNoTipAndNeverTraps() {
        for amount in [Int64.max, TipChoice.maximumTotal + 1] {
            guard case .tip(0, nil, _) = TipChoice.percentage(20).resolve(for: Self.start(amount, percentages: [20]))
            else {
                Issue.record("a tip was added to \(amount)")
                continue
            }
        }
        guard case .tip(0, nil, _) = TipChoice.amount(1).resolve(for: Self.start(Int64.min, custom: true)) else {
            Issue.record("a tip was added to a negative amount")
            return
        }
    }

    @Test func cancelAndNoTipAreWhatTheySay() {
        #expect(TipChoice.cancel.resolve(for: Self.start(10_00, percentages: [10])) == .cancelled)
        #expect(TipChoice.noTip.resolve(for: Self.start(10_00, percentages: [10])) == .tip(amount: 0, percentage: nil, note: nil))
    }
}
