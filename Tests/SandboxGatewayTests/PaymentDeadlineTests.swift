import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderSimulator
import SandboxCards
import SandboxGateway
import Testing

/// The gateway enforces update deadlines on card payments (the TSM seed: a terminal that has
/// not installed an update by its deadline is deactivated): over HTTP on a loopback port, with
/// the gateway's manual clock and authorisation data made by the reader simulator's kernel.
@Suite(.timeLimit(.minutes(2))) struct PaymentDeadlineTests {
    static let day: TimeInterval = 24 * 60 * 60

    /// The reader of `UpdateTestSupport.initialize`'s defaults, running `firmware`.
    static func reader(serial: String = "SN-1", firmware: String = "1.0.0") -> PaymentReader {
        PaymentReader(
            model: "MPOS-1", serialNumber: serial, firmwareVersion: firmware, configurationVersion: "1")
    }

    /// A sale (or another `kind`) of `amount` read on `reader`.
    static func sale(_ amount: Int64, on reader: PaymentReader?, kind: CardPaymentKind = .sale) throws
        -> AuthorizeCardRequest
    {
        var request = try PaymentHTTPTests.authorize(
            SimulatedTerminal.card("visa-credit"), amount: amount, kind: kind)
        request.reader = reader
        return request
    }

    /// Every transaction of the first merchant.
    static func transactions(_ harness: GatewayHarness, token: String) async throws -> TransactionPage {
        try await harness.send(
            .post, GatewayPaths.searchTransactions, json: TransactionSearchRequest(), token: token
        ).decode(TransactionPage.self)
    }

    /// Publishes firmware 2.0 with a deadline a day ago, registers SN-1 on 1.0.0, and moves the
    /// clock past its three days of grace; a fresh session.
    static func blockedReader(_ harness: GatewayHarness) async throws -> (image: UpdateImage, token: String) {
        let image = try await UpdateTestSupport.published(
            harness, version: "2.0",
            deadline: GatewayJSONDate.string(harness.clock.now().addingTimeInterval(-Self.day)))
        _ = try await UpdateTestSupport.initialize(harness)
        harness.clock.advance(by: 3 * Self.day + 1)
        #expect(try await UpdateTestSupport.initialize(harness).blocked)
        return (image, try await harness.login())
    }

    @Test func theReaderIsOneOptionalObjectSoAnOlderRequestStillDecodes() throws {
        var reader = Self.reader()
        reader.channel = .test
        let request = AuthorizeCardRequest(
            kind: .sale, parameters: PaymentParameters(amount: 5, currency: .eur), entryMode: .chip,
            cvm: .pin, reader: reader)
        let data = try GatewayJSON.makeEncoder().encode(request)
        #expect(
            String(decoding: data, as: UTF8.self).contains(
                #""reader":{"channel":"test","configurationVersion":"1","firmwareVersion":"1.0.0","#
                    + #""model":"MPOS-1","serialNumber":"SN-1"}"#))
        #expect(try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: data) == request)
        for older in [
            #"{"kind":"sale","amount":5,"currency":"EUR","entryMode":"chip","cvm":"pin"}"#,
            #"{"kind":"sale","amount":5,"currency":"EUR","entryMode":"chip","cvm":"pin","reader":null}"#,
        ] {
            let decoded = try GatewayJSON.makeDecoder().decode(
                AuthorizeCardRequest.self, from: Data(older.utf8))
            #expect(decoded.reader == nil)
        }
    }

    @Test func aPaymentFromAReaderPastItsDeadlineAndGraceIsRefusedAndNothingIsCharged() async throws {
        try await GatewayHarness.with { harness in
            let (_, token) = try await Self.blockedReader(harness)
            let key = PaymentHTTPTests.key()
            let refused = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_00, on: Self.reader()), token: token,
                key: key)
            #expect(refused.status == 422)
            #expect(refused.error?.code == GatewayErrorCode.terminalDeactivated)
            #expect(refused.error?.message.contains("firmware 2.0") == true)
            #expect(try await Self.transactions(harness, token: token).totalCount == 0)
            // The refusal is the key's answer, as any other.
            let attempt = try await harness.send(.get, GatewayPaths.attempt(key: key), token: token)
            #expect(attempt.error?.code == GatewayErrorCode.terminalDeactivated)
            // Every card-present payment on it: an unreferenced refund and a SEPA debit too.
            let refund = try Self.sale(3_00, on: Self.reader(), kind: .refundUnreferenced)
            let refundReply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, refund, token: token)
            #expect(refundReply.error?.code == GatewayErrorCode.terminalDeactivated)
            let card = try SimulatedTerminal.authorization(
                card: SimulatedTerminal.card("visa-credit"), amount: 2_00)
            let sepa = SEPAPaymentRequest(
                amount: 2_00, currency: .eur, encryptedCardData: Hex.encode(card.encryptedCardData),
                ksn: Hex.encode(card.ksn), emvData: Hex.encode(card.emvData), maskedPAN: card.maskedPAN,
                entryMode: card.entryMode, reader: Self.reader())
            let sepaReply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.sepaPayment, sepa, token: token)
            #expect(sepaReply.status == 422 && sepaReply.error?.code == GatewayErrorCode.terminalDeactivated)
            #expect(try await Self.transactions(harness, token: token).totalCount == 0)
        }
    }

    @Test func aPaymentWithinTheGracePeriodIsApproved() async throws {
        try await GatewayHarness.with { harness in
            _ = try await UpdateTestSupport.published(
                harness, version: "2.0",
                deadline: GatewayJSONDate.string(harness.clock.now().addingTimeInterval(-Self.day)))
            _ = try await UpdateTestSupport.initialize(harness)
            harness.clock.advance(by: 3 * Self.day)  // the last moment of the grace
            let token = try await harness.login()
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_01, on: Self.reader()), token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).status == .approved)
        }
    }

    @Test func aReaderWhoseUpdateWasAppliedIsApproved() async throws {
        try await GatewayHarness.with { harness in
            let (image, token) = try await Self.blockedReader(harness)
            let confirmed = try await harness.send(
                .post, GatewayPaths.terminalInstalls,
                json: InstallConfirmation(serialNumber: "SN-1", imageID: image.id),
                token: token)
            #expect(try confirmed.decode(TerminalInitializeResponse.self).blocked == false)
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_02, on: Self.reader(firmware: "2.0")),
                token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).status == .approved)
        }
    }

    @Test func theFirstPaymentRegistersAnUnknownReaderWithItsGrace() async throws {
        try await GatewayHarness.with { harness in
            _ = try await UpdateTestSupport.published(
                harness, version: "2.0",
                deadline: GatewayJSONDate.string(harness.clock.now().addingTimeInterval(-30 * Self.day)))
            let token = try await harness.login()
            let firstPayment = harness.clock.now()
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_03, on: Self.reader(serial: "SN-NEW")),
                token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).status == .approved)

            harness.clock.advance(by: Self.day)
            let registered = try await UpdateTestSupport.initialize(harness, serial: "SN-NEW")
            #expect(registered.registeredAt == firstPayment, "registered at the payment, not at this call")
            #expect(registered.graceUntil == firstPayment.addingTimeInterval(3 * Self.day))

            harness.clock.advance(by: 2 * Self.day + 1)  // the grace from the first payment is over
            let later = try await harness.login()
            let refused = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_04, on: Self.reader(serial: "SN-NEW")),
                token: later)
            #expect(refused.error?.code == GatewayErrorCode.terminalDeactivated)
        }
    }

    @Test func aPaymentWithoutAReaderIsNotJudged() async throws {
        try await GatewayHarness.with { harness in
            _ = try await Self.blockedReader(harness)
            let token = try await harness.login()
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_05, on: nil), token: token)
            #expect(reply.status == 200)
            #expect(try reply.decode(Transaction.self).status == .approved)
        }
    }

    @Test func aReaderFieldOutsideTheTextRuleIsRefusedBeforeAnything() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            var reader = Self.reader()
            reader.serialNumber = " SN-1"
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.sale(12_06, on: reader), token: token)
            #expect(reply.status == 400 && reply.error?.code == GatewayErrorCode.invalidValue)
            #expect(reply.error?.message.contains("reader.serialNumber") == true)
        }
    }

    @Test func aSaleTakenOfflineBeforeTheDeadlineIsTakenWhenForwardedAfterIt() async throws {
        try await GatewayHarness.with { harness in
            let storedAt = harness.clock.now()
            _ = try await UpdateTestSupport.published(
                harness, version: "2.0",
                deadline: GatewayJSONDate.string(storedAt.addingTimeInterval(Self.day)))
            // Registered now: the deadline falls inside the grace, so the grace's end is the deadline.
            _ = try await UpdateTestSupport.initialize(harness)
            harness.clock.advance(by: 10 * Self.day)
            #expect(try await UpdateTestSupport.initialize(harness).blocked)
            let token = try await harness.login()

            let taken = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard,
                try Self.offlineSale(13_00, storedAt: storedAt.addingTimeInterval(2 * Self.day), atc: 0x5101),
                token: token)
            #expect(taken.status == 200)
            #expect(try taken.decode(Transaction.self).status == .approved)
            // One stored after the deadline (with its grace) was taken on a deactivated reader.
            let late = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard,
                try Self.offlineSale(
                    13_01, storedAt: storedAt.addingTimeInterval(3 * Self.day + 1), atc: 0x5102),
                token: token)
            #expect(late.status == 422 && late.error?.code == GatewayErrorCode.terminalDeactivated)
        }
    }

    /// A sale the card approved offline (TC, the host unreachable) on SN-1 running 1.0.0, as the
    /// SDK forwards it: stored at `storedAt`.
    static func offlineSale(_ amount: Int64, storedAt: Date, atc: UInt16) throws -> AuthorizeCardRequest {
        let card = SimulatedTerminal.card("visa-credit")
        let simulated = try SimulatedCard(card: card, atc: atc - 1)
        let keys = try EMVKernel.sandboxReader(derivationID: 1, counter: UInt32(atc))
        var kernel = EMVKernel(
            card: simulated, reader: keys,
            terminal: TerminalConfiguration(floorLimit: 0, appliesScenarios: false))
        var step = kernel.start(
            KernelTransaction(kind: .sale, amount: amount, currency: .eur, date: Date(), entryMode: .chip))
        var outcome: KernelOutcome?
        for _ in 0..<6 {
            switch step {
            case .selectApplication: step = kernel.selectApplication(at: 0)
            case .enterPIN: step = kernel.enterPIN(SandboxCards.pin)
            case .goOnline:
                step = kernel.complete(
                    hostApproved: false, responseCode: EMVKernel.unableToGoOnlineResponseCode,
                    issuerAuthenticationData: nil)
            case .completed(let done): outcome = done
            case .failed(let failure): throw SimulatedTerminal.Failure.kernel("\(failure)")
            }
            if outcome != nil { break }
        }
        let approved = try #require(outcome)
        #expect(approved.reason == .approvedUnableToGoOnline)
        let data = approved.authorization
        var request = AuthorizeCardRequest(
            kind: .sale,
            parameters: PaymentParameters(amount: amount, currency: .eur, duplicateCheck: false),
            emvData: Hex.encode(approved.emvData), encryptedCardData: Hex.encode(data.encryptedCardData),
            ksn: Hex.encode(data.ksn), maskedPAN: data.maskedPAN, entryMode: data.entryMode, cvm: data.cvm,
            reader: Self.reader())
        request.offlineStoredAt = storedAt
        return request
    }
}
