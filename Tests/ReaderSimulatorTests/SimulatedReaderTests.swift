import EMV
import Foundation
import MPOSCore
import ReaderLink
import ReaderLinkTCP
import SandboxCards
import MPOSTestSupport
import Testing

@testable import ReaderSimulator

/// The simulated reader driven over ReaderLink as the SDK drives it, with the sandbox issuer
/// deciding in-process (the gateway's own tests cover it over HTTP).
@Suite(.timeLimit(.minutes(2)))
struct SimulatedReaderTests {
    static let secret = try! SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)

    /// A reader and a paired SDK-side connection over an in-process link.
    static func paired(
        _ configure: (inout SimulatedReaderConfiguration) -> Void = { _ in }, mtu: Int? = nil
    ) async throws -> (SimulatedReader, ReaderConnection) {
        var configuration = SimulatedReaderConfiguration(secret: secret)
        configure(&configuration)
        let reader = SimulatedReader(configuration: configuration)
        let (sdkSide, readerSide) = InProcessTransport.makePair(maximumWriteLength: mtu)
        Task { await reader.serve(readerSide) }
        let connection = try await ReaderConnection.open(transport: sdkSide, secret: secret)
        return (reader, connection)
    }

    /// What an SDK saw during one transaction.
    struct Run {
        var events: [ReaderMessage] = []
        var outcome: TransactionOutcome?
        var decision: IssuerDecision?
        var statuses: [ReaderStatusCode] {
            events.compactMap { if case .statusReport(let report) = $0 { report.status } else { nil } }
        }
    }

    /// Runs a transaction as the SDK would: start, answer application selection and signature
    /// requests, authorize with the sandbox issuer, send the host response, wait for the outcome.
    static func transact(
        _ connection: ReaderConnection, amount: Int64, currency: Currency = .eur, choose index: UInt8 = 0,
        signature: Bool? = true, hostOverride: ((IssuerDecision) -> HostResponse)? = nil,
        onEvent: (ReaderMessage) async -> Void = { _ in }
    ) async throws -> Run {
        let id = UUID().uuidString
        var run = Run()
        var events = connection.events.makeAsyncIterator()
        let answer = try await connection.request(.startTransaction(StartTransaction(
            transactionID: id, kind: .sale, amountMinorUnits: amount, currency: .alphabetic(currency.code))))
        #expect(answer == .ack)
        while let event = await events.next() {
            run.events.append(event)
            await onEvent(event)
            switch event {
            case .applicationSelectionRequest:
                _ = try await connection.request(.applicationSelectionResponse(.chosen(index: index)))
            case .signatureRequired(let transactionID, _):
                if let signature {
                    _ = try await connection.request(.signatureResponse(SignatureResponse(
                        transactionID: transactionID, accepted: signature, png: [0x89, 0x50, 0x4E, 0x47])))
                }
            case .authorizationRequest(let request):
                let issuer = SandboxIssuer()
                let verified = try issuer.verify(
                    emvData: request.emvData, encryptedCardData: request.encryptedCardData, ksn: request.ksn,
                    maskedPAN: request.maskedPAN)
                let decision = issuer.decide(
                    verified, amount: amount, currency: currency, year: 2026, month: 11, allowPartial: false,
                    spentSoFar: 0)
                run.decision = decision
                let host = hostOverride?(decision) ?? HostResponse(
                    transactionID: id, approved: decision.isApproved, authorizationResponseCode: decision.responseCode,
                    authorizationCode: decision.authorizationCode,
                    issuerAuthenticationData: decision.issuerAuthenticationData ?? [])
                _ = try await connection.request(.hostResponse(host))
            case .transactionOutcome(let outcome):
                run.outcome = outcome
                return run
            default: break
            }
        }
        return run
    }

    @Test func reportsDeviceInformationAndBattery() async throws {
        let (_, connection) = try await Self.paired()
        guard case .deviceInfo(let info) = try await connection.request(.getDeviceInfo) else {
            Issue.record("no device info")
            return
        }
        #expect(info.serialNumber == "MPSIM-000001")
        #expect(info.battery.percentage == 100)
        guard case .battery(let battery) = try await connection.request(.getBattery) else {
            Issue.record("no battery")
            return
        }
        #expect(battery.percentage == 100)
        await connection.close()
    }

    @Test func wrongSecretCannotPairAndNothingFinancialHappens() async throws {
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret))
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        Task { await reader.serve(readerSide) }
        let wrong = try SharedSecret(bytes: Array(repeating: 0x42, count: 32))
        await #expect(throws: ReaderLinkError.sharedSecretInvalid) {
            _ = try await ReaderConnection.open(transport: sdkSide, secret: wrong)
        }
        #expect(await reader.completedTransactions == 0)
    }

    @Test func approvesAChipSaleWithATransactionCertificate() async throws {
        let (reader, connection) = try await Self.paired()
        let run = try await Self.transact(connection, amount: 1_234)
        let outcome = try #require(run.outcome)
        #expect(run.decision?.responseCode == "00")
        #expect(outcome.cryptogramType == .tc)
        #expect(outcome.status == .success)
        #expect(run.statuses.contains(.waitingCard))
        #expect(run.events.contains(.cardEvent(.inserted)))
        let tree = try TLVTree(decoding: outcome.emvData)
        #expect(tree[0x9F26]?.count == 8)
        #expect(await reader.completedTransactions == 1)
        await connection.close()
    }

    @Test func theHandpointDeclineAmountDeclinesWithAnAAC() async throws {
        let (_, connection) = try await Self.paired()
        let run = try await Self.transact(connection, amount: 1_000)
        #expect(run.decision?.responseCode == "05")
        #expect(run.outcome?.cryptogramType == .aac)
        await connection.close()
    }

    @Test func theCardholderCancelsAtTwentyEuros() async throws {
        let (_, connection) = try await Self.paired()
        let run = try await Self.transact(connection, amount: 2_000)
        #expect(run.outcome?.status == .userCancelled)
        #expect(run.decision == nil)
        await connection.close()
    }

    @Test func asksForTheApplicationOnADualApplicationChip() async throws {
        let (_, connection) = try await Self.paired { $0.cardID = "maestro-mastercard" }
        let run = try await Self.transact(connection, amount: 1_500, choose: 1)
        let candidates = run.events.compactMap { if case .applicationSelectionRequest(let list) = $0 { list } else { nil } }
        #expect(candidates.first?.count == 2)
        #expect(run.outcome?.cryptogramType == .tc)
        await connection.close()
    }

    @Test func signatureAcceptedApprovesAndDeclinedDoesNot() async throws {
        let (_, connection) = try await Self.paired { $0.cardID = "amex" }
        let accepted = try await Self.transact(connection, amount: 2_500, signature: true)
        #expect(accepted.events.contains { if case .signatureRequired = $0 { true } else { false } })
        #expect(accepted.outcome?.cryptogramType == .tc)
        #expect(accepted.outcome?.cvm == .signature)
        let declined = try await Self.transact(connection, amount: 2_500, signature: false)
        #expect(declined.outcome?.cryptogramType == .aac)
        #expect(declined.outcome?.status == .invalidSignature)
        await connection.close()
    }

    @Test func theScenarioSignatureAmountAsksEveryCardForASignature() async throws {
        let (_, connection) = try await Self.paired()
        let run = try await Self.transact(connection, amount: 3_000)
        #expect(run.events.contains { if case .signatureRequired = $0 { true } else { false } })
        #expect(run.outcome?.cryptogramType == .tc)
        await connection.close()
    }

    @Test func aCardThatDeclinesAfterHostApprovalEndsWithAnAAC() async throws {
        let declining = try #require(SandboxCards.all.first { $0.behaviours.declinesAtSecondGenerateAC })
        let (_, connection) = try await Self.paired { $0.cardID = declining.id }
        let run = try await Self.transact(connection, amount: 4_200)
        #expect(run.decision?.isApproved == true)
        #expect(run.outcome?.cryptogramType == .aac)
        await connection.close()
    }

    @Test func cancelIsAcceptedWhileWaitingForACardAndRefusedOtherwise() async throws {
        let (_, connection) = try await Self.paired { $0.waitsForCard = true }
        #expect(try await connection.request(.cancelRequest(transactionID: nil))
            == .cancelResponse(accepted: false, status: .commandNotAllowed))
        var events = connection.events.makeAsyncIterator()
        _ = try await connection.request(.startTransaction(StartTransaction(
            transactionID: "t1", kind: .sale, amountMinorUnits: 500, currency: .alphabetic("EUR"))))
        // Wait until the reader says cancel is allowed.
        while let event = await events.next() {
            if case .statusReport(let report) = event, report.cancelAllowed { break }
        }
        #expect(try await connection.request(.cancelRequest(transactionID: "t1"))
            == .cancelResponse(accepted: true, status: .userCancelled))
        var outcome: TransactionOutcome?
        while let event = await events.next() {
            if case .transactionOutcome(let result) = event {
                outcome = result
                break
            }
        }
        #expect(outcome?.status == .userCancelled)
        await connection.close()
    }

    @Test func aSecondTransactionWhileOneRunsIsRefused() async throws {
        let (_, connection) = try await Self.paired { $0.waitsForCard = true }
        _ = try await connection.request(.startTransaction(StartTransaction(
            transactionID: "a", kind: .sale, amountMinorUnits: 500, currency: .alphabetic("EUR"))))
        await #expect(throws: ReaderLinkError.rejected(.commandNotAllowed, detail: "a transaction is already in progress")) {
            _ = try await connection.request(.startTransaction(StartTransaction(
                transactionID: "b", kind: .sale, amountMinorUnits: 500, currency: .alphabetic("EUR"))))
        }
        await connection.close()
    }

    @Test func lowBatteryRefusesTransactions() async throws {
        let (reader, connection) = try await Self.paired()
        await reader.setBattery(percentage: 3)
        await #expect(throws: ReaderLinkError.self) {
            _ = try await connection.request(.startTransaction(StartTransaction(
                transactionID: "x", kind: .sale, amountMinorUnits: 500, currency: .alphabetic("EUR"))))
        }
        await connection.close()
    }

    @Test func aSaleWorksOverATwentyByteMTU() async throws {
        let (_, connection) = try await Self.paired(mtu: 20)
        let run = try await Self.transact(connection, amount: 777)
        #expect(run.outcome?.cryptogramType == .tc)
        await connection.close()
    }

    @Test func logsNeverHoldCardNumbers() async throws {
        let (_, connection) = try await Self.paired { $0.cardID = "maestro-mastercard" }
        _ = try await connection.request(.setLogLevel(.debug))
        _ = try await Self.transact(connection, amount: 900)
        guard case .logs(let lines) = try await connection.request(.fetchLogs) else {
            Issue.record("no logs")
            return
        }
        #expect(!lines.isEmpty)
        for card in SandboxCards.all {
            #expect(!lines.joined(separator: "\n").contains(card.pan.unmaskedDigits))
        }
        await connection.close()
    }

    @Test func firmwareUpdateSwitchesSlotsOnlyAfterVerification() async throws {
        let (reader, connection) = try await Self.paired()
        let image = Array("firmware 2.0.0 image".utf8) + Array(repeating: 0xAB, count: 10_000)
        let digest = FirmwareSlots.sha256(image)
        _ = try await connection.request(.updateBegin(try SignedImages.begin(image, version: "2.0.0")))
        var offset = 0
        while offset < image.count {
            let end = min(offset + 4_096, image.count)
            _ = try await connection.request(.updateChunk(offset: UInt32(offset), bytes: Array(image[offset..<end])))
            offset = end
        }
        #expect(await reader.activeVersions().firmware == "1.0.0")
        _ = try await connection.request(.updateVerify)
        #expect(try await connection.request(.updateCommit) == .ack)
        #expect(await reader.activeVersions().firmware == "2.0.0")

        // A corrupted image never commits.
        _ = try await connection.request(.updateBegin(UpdateBegin(
            slot: .firmware, size: 4, sha256: digest, version: "3.0.0")))
        _ = try await connection.request(.updateChunk(offset: 0, bytes: [1, 2, 3, 4]))
        await #expect(throws: ReaderLinkError.self) { _ = try await connection.request(.updateVerify) }
        await #expect(throws: ReaderLinkError.self) { _ = try await connection.request(.updateCommit) }
        #expect(await reader.activeVersions().firmware == "2.0.0")

        // A whole, intact image signed for another channel, another model or with another key is
        // refused at verification and never commits.
        let refusals = [
            try SignedImages.begin(image, version: "4.0.0", channel: "test"),
            try SignedImages.begin(image, version: "4.0.0", model: "Other Reader"),
            try SignedImages.begin(image, version: "4.0.0", seedHex: String(repeating: "11", count: 32)),
        ]
        for begin in refusals {
            _ = try await connection.request(.updateBegin(begin))
            var sent = 0
            while sent < image.count {
                let end = min(sent + 4_096, image.count)
                _ = try await connection.request(.updateChunk(offset: UInt32(sent), bytes: Array(image[sent..<end])))
                sent = end
            }
            let refusal = await Self.refusal(of: .updateVerify, on: connection)
            #expect(refusal?.status == .updateVerificationFailed)
            #expect(refusal?.detail.contains("signature") == true)
            await #expect(throws: ReaderLinkError.self) { _ = try await connection.request(.updateCommit) }
            #expect(await reader.activeVersions().firmware == "2.0.0")
        }
        await connection.close()
    }

    /// The status and detail of the reader's error answer to `message`, or nil for any other outcome.
    static func refusal(of message: ReaderMessage, on connection: ReaderConnection) async
        -> (status: ReaderStatusCode, detail: String)?
    {
        let outcome: Result<ReaderMessage, ReaderLinkError>
        do { outcome = .success(try await connection.request(message)) } catch { outcome = .failure(error) }
        guard case .failure(.rejected(let status, let detail)) = outcome else { return nil }
        return (status, detail)
    }

    @Test func aDroppedLinkLeavesTheReaderUsable() async throws {
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret))
        await reader.setFaults(FaultPlan([.dropLink(atMessage: 6)]))
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        let first = Task { await reader.serve(readerSide) }
        let connection = try await ReaderConnection.open(transport: sdkSide, secret: Self.secret)
        await #expect(throws: ReaderLinkError.self) {
            for _ in 0..<10 { _ = try await connection.request(.ping) }
        }
        // The dropped link's session ends before the next one pairs; without the wait the
        // second pairing could find the reader still held (seen under load).
        await first.value
        await reader.setFaults(.none)
        let (sdk2, reader2) = InProcessTransport.makePair()
        Task { await reader.serve(reader2) }
        let again = try await ReaderConnection.open(transport: sdk2, secret: Self.secret)
        #expect(try await again.request(.ping) == .pong)
        await again.close()
    }

    @Test func theTCPEmulatorSurvivesGarbageHalfFramesAndSilence() async throws {
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret))
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let accepting = Task {
            for await client in server.connections { Task { await reader.serve(client) } }
        }
        // Garbage, then close.
        let garbage = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        try garbage.send((0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        await garbage.close()
        // A silent client that stays connected.
        let silent = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        // Half a frame: a plausible start and then nothing.
        let half = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        try half.send([0x4D, 0x50, 0x01])
        // A proper client still pairs and transacts.
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        let connection = try await ReaderConnection.open(transport: transport, secret: Self.secret)
        let run = try await Self.transact(connection, amount: 1_999)
        #expect(run.outcome?.cryptogramType == .tc)
        await connection.close()
        await silent.close()
        await half.close()
        await server.close()
        accepting.cancel()
    }

    /// Starts a sale and collects events until the stream ends or an outcome arrives.
    static func eventsOfSale(_ connection: ReaderConnection, amount: Int64, answerHost: Bool) async throws
        -> [ReaderMessage]
    {
        var seen: [ReaderMessage] = []
        var events = connection.events.makeAsyncIterator()
        _ = try await connection.request(.startTransaction(StartTransaction(
            transactionID: "link", kind: .sale, amountMinorUnits: amount, currency: .alphabetic("EUR"))))
        while let event = await events.next() {
            seen.append(event)
            if case .authorizationRequest = event, answerHost {
                _ = try? await connection.request(.hostResponse(HostResponse(
                    transactionID: "link", approved: true, authorizationResponseCode: "00")))
            }
            if case .transactionOutcome = event { break }
        }
        return seen
    }

    @Test func amount9001DropsTheLinkBeforeTheAuthorizationRequest() async throws {
        let (reader, connection) = try await Self.paired()
        let seen = try await Self.eventsOfSale(connection, amount: 9_001, answerHost: true)
        #expect(!seen.contains { if case .authorizationRequest = $0 { true } else { false } })
        await #expect(throws: ReaderLinkError.self) { _ = try await connection.request(.getBattery) }
        #expect(await reader.completedTransactions == 0)
    }

    @Test func amount9002DropsTheLinkAfterTheHostAnswered() async throws {
        let (_, connection) = try await Self.paired()
        let seen = try await Self.eventsOfSale(connection, amount: 9_002, answerHost: true)
        #expect(seen.contains { if case .authorizationRequest = $0 { true } else { false } })
        #expect(!seen.contains { if case .transactionOutcome = $0 { true } else { false } })
    }

    @Test func amount9004RebootsTheReader() async throws {
        let (reader, connection) = try await Self.paired()
        _ = try await Self.eventsOfSale(connection, amount: 9_004, answerHost: true)
        #expect(await reader.reboots == 1)
        // After the reboot the reader pairs again and works.
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        Task { await reader.serve(readerSide) }
        let again = try await ReaderConnection.open(transport: sdkSide, secret: Self.secret)
        #expect(try await again.request(.ping) == .pong)
        await again.close()
    }

    @Test func amount9005LeavesTheReaderSilentUntilTheSDKTimesOut() async throws {
        var configuration = SimulatedReaderConfiguration(secret: Self.secret)
        configuration.appliesScenarios = true
        let reader = SimulatedReader(configuration: configuration)
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        Task { await reader.serve(readerSide) }
        let clock = ManualClock()
        let connection = try await ReaderConnection.open(
            transport: sdkSide, secret: Self.secret, timeout: .seconds(10), clock: clock)
        _ = try await connection.request(.startTransaction(StartTransaction(
            transactionID: "silent", kind: .sale, amountMinorUnits: 9_005, currency: .alphabetic("EUR"))))
        // The reader goes silent on the wire too (the last frames it queued may never arrive),
        // so its own log says when.
        while await !reader.logLines.contains("scenario: the reader stops answering") { await Task.yield() }
        let asking = Task { try await connection.request(.getBattery) }
        // The request is pending (the link's one request timer is already sleeping).
        while await connection.pendingRequestCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(10))
        await #expect(throws: ReaderLinkError.timeout) { _ = try await asking.value }
        await connection.close()
    }
}
