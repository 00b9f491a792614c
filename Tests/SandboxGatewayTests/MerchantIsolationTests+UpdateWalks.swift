import Foundation
import GatewayAPI
import SandboxGateway
import Testing

/// What merchant B does on the terminal-management routes: readers are registered per
/// merchant, the catalogue is the sandbox's (shared, and published only by the first merchant).
extension MerchantIsolationTests {
    static func addUpdateWalks(_ walk: (GatewayRoute, @escaping RouteWalk) -> Void) {
        let none: Int? = nil

        walk(GatewayRoutes.terminalInitialize.route) { w async throws in
            // A registers the serial as one model and channel; B registering it as another is
            // B's own reader, not a conflict with A's.
            let a = try await UpdateTestSupport.initialize(w.harness, token: w.a.token, serial: "WALK-SN", model: "WALK-A")
            #expect(!a.hasUpdates)
            let reply = try await w.send(
                .post, GatewayPaths.terminalInitialize,
                json: TerminalInitializeRequest(
                    model: "WALK-B", serialNumber: "WALK-SN", firmwareVersion: "1", configurationVersion: "1",
                    channel: .test))
            #expect(reply.status == 200)
            let again = try await UpdateTestSupport.initialize(w.harness, token: w.a.token, serial: "WALK-SN", model: "WALK-A")
            #expect(again.registeredAt == a.registeredAt)
        }
        walk(GatewayRoutes.terminalInstalls.route) { w async throws in
            let image = try await UpdateTestSupport.published(
                w.harness, model: "WALK-INSTALL", version: "2.0")
            _ = try await UpdateTestSupport.initialize(
                w.harness, token: w.a.token, serial: "WALK-I", model: "WALK-INSTALL")
            let reply = try await w.send(
                .post, GatewayPaths.terminalInstalls,
                json: InstallConfirmation(serialNumber: "WALK-I", imageID: image.id))
            #expect(reply.status == 404, "B has no reader WALK-I")
            let installs = try await TerminalRegistry(
                database: w.harness.gateway.environment.store.database, now: w.harness.clock.dateProvider
            ).installs(merchant: w.a.credentials.merchantID, serialNumber: "WALK-I")
            #expect(installs.isEmpty)
        }
        walk(GatewayRoutes.listUpdates.route) { w async throws in
            let image = try await UpdateTestSupport.published(w.harness, model: "WALK-LIST", version: "1")
            let list = try await w.send(.get, GatewayPaths.updates, json: none).decode(UpdateCatalogue.self)
            #expect(list.images.contains(image), "the catalogue is the sandbox's, shared by its merchants")
        }
        walk(GatewayRoutes.publishUpdate.route) { w async throws in
            let reply = try await UpdateTestSupport.publish(
                w.harness, model: "WALK-PUBLISH", version: "1", bytes: Data([1, 2, 3]), apiKey: w.b.apiKey)
            #expect(reply.status == 403, "only the first merchant publishes")
        }
        walk(GatewayRoutes.updateFile.route) { w async throws in
            let bytes = Data([9, 8, 7, 6])
            let image = try await UpdateTestSupport.published(w.harness, model: "WALK-FILE", version: "1", bytes: bytes)
            let reply = try await w.send(
                .get, GatewayPaths.filling(GatewayPaths.updateFile, ["id": image.id]), json: none)
            #expect(reply.status == 200 && reply.body == bytes)
        }
    }
}
