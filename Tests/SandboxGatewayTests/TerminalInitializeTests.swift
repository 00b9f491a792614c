import Foundation
import GatewayAPI
import SandboxGateway
import Testing

/// `POST /v1/terminals/initialize` and `/installs`: registration, pending images, deadlines,
/// the new reader's grace period and blocking, driven by the gateway's manual clock.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct TerminalInitializeTests {
    static let day: TimeInterval = 24 * 60 * 60

    @Test(arguments: GatewayTestEngine.allCases) func aReaderWithNothingNewerHasNoUpdatesAndIsRegisteredAtItsFirstCall(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            _ = try await UpdateTestSupport.published(harness, version: "1.0.0")
            let registered = harness.clock.now()
            let first = try await UpdateTestSupport.initialize(harness, firmware: "1.0.0")
            #expect(!first.hasUpdates && first.pending.isEmpty && first.updateDeadline == nil && !first.blocked)
            #expect(first.registeredAt == registered && first.graceUntil == registered.addingTimeInterval(3 * Self.day))
            harness.clock.advance(by: 10 * Self.day)
            let later = try await UpdateTestSupport.initialize(harness, firmware: "0.9")
            #expect(later.registeredAt == registered, "a later call does not register again")
            #expect(later.hasUpdates && later.pending.map(\.version) == ["1.0.0"])
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func pendingIsTheNewestImageOfEachKindForTheReadersModelAndChannel(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            _ = try await UpdateTestSupport.published(harness, version: "1.9.0")
            let newest = try await UpdateTestSupport.published(harness, version: "1.10.0")
            _ = try await UpdateTestSupport.published(harness, version: "1.2.0")
            let config = try await UpdateTestSupport.published(harness, kind: .configuration, version: "8")
            _ = try await UpdateTestSupport.published(harness, kind: .configuration, version: "2")
            _ = try await UpdateTestSupport.published(harness, model: "MPOS-2", version: "9.0")
            _ = try await UpdateTestSupport.published(harness, version: "5.0", channel: .test)
            let answer = try await UpdateTestSupport.initialize(harness, firmware: "1.2", configuration: "7")
            #expect(answer.hasUpdates)
            #expect(answer.pending == [config, newest], "configuration first, 1.10.0 newer than 1.9.0")
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func testAndProductionReadersSeeOnlyTheirChannelsImages(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let production = try await UpdateTestSupport.published(harness, version: "2.0")
            let test = try await UpdateTestSupport.published(harness, version: "3.0", channel: .test)
            let token = try await harness.login()
            let productionReader = try await UpdateTestSupport.initialize(harness, serial: "P-1")
            #expect(productionReader.pending == [production])
            let testReader = try await UpdateTestSupport.initialize(harness, serial: "T-1", channel: .test)
            #expect(testReader.pending == [test])
            // A test image is never confirmed on a production reader.
            let wrong = try await harness.send(
                .post, GatewayPaths.terminalInstalls,
                json: InstallConfirmation(serialNumber: "P-1", imageID: test.id), token: token)
            #expect(wrong.status == 400 && wrong.error?.code == GatewayErrorCode.invalidValue)
            let switched = try await harness.send(
                .post, GatewayPaths.terminalInitialize,
                json: TerminalInitializeRequest(
                    model: "MPOS-1", serialNumber: "P-1", firmwareVersion: "1", configurationVersion: "1",
                    channel: .test), token: token)
            #expect(switched.status == 409)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aNewReaderGetsThreeDaysForAnExpiredDeadlineThenIsBlocked(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let now = harness.clock.now()
            let expired = GatewayJSONDate.string(now.addingTimeInterval(-30 * Self.day))
            let image = try await UpdateTestSupport.published(harness, version: "2.0", deadline: expired)
            let first = try await UpdateTestSupport.initialize(harness)
            #expect(first.hasUpdates && first.pending == [image] && !first.blocked)
            #expect(first.updateDeadline == now.addingTimeInterval(3 * Self.day))
            harness.clock.advance(by: 3 * Self.day)
            #expect(!(try await UpdateTestSupport.initialize(harness).blocked), "at the deadline, not after")
            harness.clock.advance(by: 1)
            let after = try await UpdateTestSupport.initialize(harness)
            #expect(after.blocked && after.updateDeadline == now.addingTimeInterval(3 * Self.day))
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aDeadlineAfterTheGraceIsKeptAndTheEarliestWins(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let now = harness.clock.now()
            _ = try await UpdateTestSupport.initialize(harness)
            let firmwareDue = now.addingTimeInterval(10 * Self.day)
            let configDue = now.addingTimeInterval(5 * Self.day)
            _ = try await UpdateTestSupport.published(
                harness, version: "2.0", deadline: GatewayJSONDate.string(firmwareDue))
            // A newer image without a deadline does not lift the older one's.
            _ = try await UpdateTestSupport.published(harness, version: "3.0")
            _ = try await UpdateTestSupport.published(
                harness, kind: .configuration, version: "2", deadline: GatewayJSONDate.string(configDue))
            let answer = try await UpdateTestSupport.initialize(harness)
            #expect(answer.pending.map(\.version) == ["2", "3.0"])
            #expect(answer.updateDeadline == configDue && !answer.blocked)
            // Both are required: "3.0" has no deadline of its own, but supersedes "2.0", which does.
            #expect(answer.required == answer.pending.map(\.id))
            harness.clock.advance(by: 5 * Self.day + 1)
            #expect(try await UpdateTestSupport.initialize(harness).blocked)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aConfirmedInstallClearsThatImageAndOlderOnes(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let now = harness.clock.now()
            _ = try await UpdateTestSupport.published(harness, version: "1.5")
            let newest = try await UpdateTestSupport.published(
                harness, version: "2.0", deadline: GatewayJSONDate.string(now.addingTimeInterval(-Self.day)))
            let config = try await UpdateTestSupport.published(harness, kind: .configuration, version: "4")
            // The configuration has no deadline: only the firmware is required.
            #expect(try await UpdateTestSupport.initialize(harness).required == [newest.id])
            harness.clock.advance(by: 4 * Self.day)
            #expect(try await UpdateTestSupport.initialize(harness).blocked)
            let token = try await harness.login()
            let reply = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-1", imageID: newest.id),
                token: token)
            #expect(reply.status == 200)
            let after = try reply.decode(TerminalInitializeResponse.self)
            #expect(after.pending == [config] && after.hasUpdates && !after.blocked && after.updateDeadline == nil)
            let installs = try await TerminalRegistry(
                database: harness.gateway.environment.store.database, now: harness.clock.dateProvider
            ).installs(merchant: harness.credentials.merchantID, serialNumber: "SN-1")
            #expect(installs.map(\.imageID) == [newest.id] && installs.map(\.at) == [harness.clock.now()])
            let done = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-1", imageID: config.id),
                token: token
            ).decode(TerminalInitializeResponse.self)
            #expect(!done.hasUpdates && done.pending.isEmpty)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func installsOfUnknownImagesReadersOrOtherModelsAreRefused(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let token = try await harness.login()
            let other = try await UpdateTestSupport.published(harness, model: "MPOS-2", version: "2.0")
            _ = try await UpdateTestSupport.initialize(harness)
            let unknownImage = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-1", imageID: "upd_0"),
                token: token)
            #expect(unknownImage.status == 404 && unknownImage.error?.code == GatewayErrorCode.notFound)
            let unknownReader = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-9", imageID: other.id),
                token: token)
            #expect(unknownReader.status == 404)
            let otherModel = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-1", imageID: other.id),
                token: token)
            #expect(otherModel.status == 400 && otherModel.error?.code == GatewayErrorCode.invalidValue)
            let badSerial = try await harness.send(
                .post, GatewayPaths.terminalInitialize,
                json: TerminalInitializeRequest(
                    model: "MPOS-1", serialNumber: "", firmwareVersion: "1", configurationVersion: "1"), token: token)
            #expect(badSerial.status == 400)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func anotherMerchantsReaderWithTheSameSerialIsASeparateRegistration(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let image = try await UpdateTestSupport.published(harness, version: "2.0")
            let first = try await UpdateTestSupport.initialize(harness)
            harness.clock.advance(by: Self.day)
            let b = try await harness.gateway.environment.accounts.addMerchant(name: "Team B")
            let tokenB = try await harness.login(user: b.user, password: b.password)
            let second = try await UpdateTestSupport.initialize(harness, token: tokenB)
            #expect(second.registeredAt == harness.clock.now() && second.registeredAt != first.registeredAt)
            #expect(second.pending == [image])
            let installed = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-1", imageID: image.id),
                token: tokenB
            ).decode(TerminalInitializeResponse.self)
            #expect(!installed.hasUpdates)
            // B's install is B's reader's: A's reader of the same serial has none.
            let registry = TerminalRegistry(
                database: harness.gateway.environment.store.database, now: harness.clock.dateProvider)
            #expect(try await registry.installs(merchant: b.merchantID, serialNumber: "SN-1").map(\.imageID) == [image.id])
            #expect(try await registry.installs(merchant: harness.credentials.merchantID, serialNumber: "SN-1").isEmpty)
            let foreign = try await harness.send(
                .post, GatewayPaths.terminalInstalls, json: InstallConfirmation(serialNumber: "SN-2", imageID: image.id),
                token: tokenB)
            #expect(foreign.status == 404)
        }
    }
}

/// Dates as the gateway's JSON writes them.
enum GatewayJSONDate {
    static func string(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
