import Crypto
import EMV
import Foundation
import GatewayAPI
import SandboxGateway
import Testing

/// Publishing to the sandbox's update catalogue, over HTTP and through the Swift API, and
/// listing it.
@Suite(.timeLimit(.minutes(2))) struct UpdateCatalogueTests {
    @Test func aPublishedImageCarriesItsHashesAndAVerifyingSignature() async throws {
        try await GatewayHarness.with { harness in
            let bytes = UpdateTestSupport.bytes(5_000)
            let reply = try await UpdateTestSupport.publish(
                harness, version: "2.1.0", deadline: "2027-01-31T12:00:00Z", bytes: bytes)
            #expect(reply.status == 201)
            let image = try reply.decode(UpdateImage.self)
            #expect(image.id.hasPrefix("upd_") && image.model == "MPOS-1" && image.kind == .firmware)
            #expect(image.version == "2.1.0" && image.channel == .production && image.size == 5_000)
            #expect(image.sha256 == Hex.encode(SHA256.hash(data: bytes)).lowercased())
            #expect(image.md5 == Hex.encode(Insecure.MD5.hash(data: bytes)).lowercased())
            #expect(image.deadline == GatewayTimestamp.parse("2027-01-31T12:00:00Z"))
            #expect(image.publishedAt == harness.clock.now())
            let key = try Curve25519.Signing.PublicKey(
                rawRepresentation: Hex.decode(SandboxUpdateSigning.publicKeyHex))
            let signature = try Hex.decode(image.signature)
            #expect(key.isValidSignature(signature, for: image.signedMessage))
            var tampered = image
            tampered.version = "2.1.1"
            #expect(!key.isValidSignature(signature, for: tampered.signedMessage))
        }
    }

    @Test func thePublishedPublicKeyIsTheSeedsAndSigns() throws {
        let seed = try Hex.decode(SandboxUpdateSigning.privateKeySeedHex)
        #expect(seed.count == 32)
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        #expect(Hex.encode(key.publicKey.rawRepresentation).lowercased() == SandboxUpdateSigning.publicKeyHex)
        let message = Array("MPOSKit update image v1\nMPOS-1".utf8)
        let signature = try Hex.decode(SandboxUpdateSigning.signatureHex(of: message))
        #expect(signature.count == 64 && key.publicKey.isValidSignature(signature, for: message))
    }

    @Test func theCatalogueListsEveryImageNewestFirst() async throws {
        try await GatewayHarness.with { harness in
            let first = try await UpdateTestSupport.published(harness, version: "1.1")
            harness.clock.advance(by: 60)
            let second = try await UpdateTestSupport.published(harness, kind: .configuration, version: "7")
            harness.clock.advance(by: 60)
            let third = try await UpdateTestSupport.published(harness, model: "MPOS-2", version: "1.1", channel: .test)
            let token = try await harness.login()
            let list = try await harness.send(.get, GatewayPaths.updates, token: token)
            #expect(list.status == 200)
            #expect(try list.decode(UpdateCatalogue.self).images == [third, second, first])
        }
    }

    @Test func theSwiftAPIPublishesIntoTheDatabaseARunningGatewayServes() async throws {
        try await GatewayHarness.with { harness in
            let path = harness.directory.appendingPathComponent("gateway.sqlite").path
            let bytes = UpdateTestSupport.bytes(777)
            let image = try await SandboxGateway.publishUpdate(
                SandboxGatewayConfiguration(databasePath: path, now: harness.clock.dateProvider),
                UpdatePublication(model: "MPOS-1", kind: .configuration, version: "12", channel: .test),
                content: bytes)
            #expect(image.size == 777 && image.channel == .test)
            let token = try await harness.login()
            let list = try await harness.send(.get, GatewayPaths.updates, token: token).decode(UpdateCatalogue.self)
            #expect(list.images == [image])
            let file = try await harness.send(
                .get, GatewayPaths.filling(GatewayPaths.updateFile, ["id": image.id]), token: token)
            #expect(file.status == 200 && file.body == bytes)
            await #expect(throws: GatewayError.self) {
                _ = try await SandboxGateway.publishUpdate(
                    SandboxGatewayConfiguration(databasePath: path),
                    UpdatePublication(model: "MPOS-1", kind: .configuration, version: "12", channel: .test),
                    content: bytes)
            }
        }
    }

    @Test func badPublicationsAreRefusedWithTheirCodes() async throws {
        try await GatewayHarness.with { harness in
            let bytes = UpdateTestSupport.bytes(10)
            let ok = try await UpdateTestSupport.publish(harness, version: "3", bytes: bytes)
            #expect(ok.status == 201)
            let duplicate = try await UpdateTestSupport.publish(harness, version: "3", bytes: bytes)
            #expect(duplicate.status == 409 && duplicate.error?.code == GatewayErrorCode.invalidState)
            // The same version on the other channel or for the other kind is another image.
            #expect(try await UpdateTestSupport.publish(harness, version: "3", channel: .test, bytes: bytes).status == 201)
            #expect(
                try await UpdateTestSupport.publish(harness, kind: .configuration, version: "3", bytes: bytes).status
                    == 201)
            let empty = try await UpdateTestSupport.publish(harness, version: "4", bytes: Data())
            #expect(empty.status == 400 && empty.error?.code == GatewayErrorCode.invalidValue)
            let longVersion = try await UpdateTestSupport.publish(
                harness, version: String(repeating: "9", count: 65), bytes: bytes)
            #expect(longVersion.status == 400)
            let spaced = try await UpdateTestSupport.publish(harness, model: "+MPOS", version: "5", bytes: bytes)
            #expect(spaced.status == 400, "a leading space (sent as +) is refused")
            let badDeadline = try await UpdateTestSupport.publish(
                harness, version: "5", deadline: "2027-02-30T00:00:00Z", bytes: bytes)
            #expect(badDeadline.status == 400)
            let badKind = try await harness.send(
                .post, GatewayPaths.updates + "?model=M&kind=emv&version=1", body: bytes,
                apiKey: harness.credentials.apiKey)
            #expect(badKind.status == 400 && badKind.error?.code == GatewayErrorCode.invalidValue)
            let missing = try await harness.send(
                .post, GatewayPaths.updates + "?model=M&kind=firmware", body: bytes, apiKey: harness.credentials.apiKey)
            #expect(missing.status == 400)
        }
    }

    @Test func onlyTheFirstMerchantsAPIKeyPublishesAndLargeImagesPass() async throws {
        try await GatewayHarness.with { harness in
            let bytes = UpdateTestSupport.bytes(200_000)
            let token = try await harness.login()
            let withToken = try await harness.send(
                .post, GatewayPaths.updates + "?model=M&kind=firmware&version=1", body: bytes, token: token)
            #expect(withToken.status == 403)
            let anonymous = try await harness.send(
                .post, GatewayPaths.updates + "?model=M&kind=firmware&version=1", body: bytes)
            #expect(anonymous.status == 401)
            let second = try await harness.gateway.environment.accounts.addMerchant(name: "Team B")
            let other = try await UpdateTestSupport.publish(harness, version: "1", bytes: bytes, apiKey: second.apiKey)
            #expect(other.status == 403)
            // Far beyond the gateway's 64 KiB body limit, which still applies elsewhere.
            let large = try await UpdateTestSupport.publish(harness, version: "1", bytes: bytes)
            #expect(large.status == 201)
            #expect(try large.decode(UpdateImage.self).size == 200_000)
            let json = try await harness.send(
                .post, GatewayPaths.terminalInitialize, body: Data(repeating: 0x20, count: 100_000), token: token)
            #expect(json.status == 413)
        }
    }
}
