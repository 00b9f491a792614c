import Crypto
import EMV
import Foundation
import GatewayAPI
import Hummingbird
import Testing

@testable import SandboxGateway

/// `GET /v1/updates/{id}/file`: whole, resumed with `Range`, refused with 416, and HEAD.
@Suite(.timeLimit(.minutes(2)), .postgresServer) struct UpdateDownloadTests {
    static func range(_ value: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.range] = value
        return fields
    }

    @Test(arguments: GatewayTestEngine.allCases) func twoRangedHalvesMakeTheFileWhoseHashIsTheCataloguesOne(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let bytes = UpdateTestSupport.bytes(100_001)
            let image = try await UpdateTestSupport.published(harness, version: "2.0", bytes: bytes)
            let token = try await harness.login()
            let path = GatewayPaths.filling(GatewayPaths.updateFile, ["id": image.id])
            let whole = try await harness.send(.get, path, token: token)
            #expect(whole.status == 200 && whole.body == bytes)
            #expect(whole.header("ETag") == "\"\(image.sha256)\"" && whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Content-Type") == "application/octet-stream")
            let first = try await harness.send(.get, path, token: token, headers: Self.range("bytes=0-49999"))
            #expect(first.status == 206 && first.header("Content-Range") == "bytes 0-49999/100001")
            let rest = try await harness.send(.get, path, token: token, headers: Self.range("bytes=50000-"))
            #expect(rest.status == 206 && rest.header("Content-Range") == "bytes 50000-100000/100001")
            let joined = first.body + rest.body
            #expect(joined == bytes)
            #expect(Hex.encode(SHA256.hash(data: joined)).lowercased() == image.sha256)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func aRangePastTheEndIs416WithTheSize(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let image = try await UpdateTestSupport.published(harness, version: "2.0", bytes: UpdateTestSupport.bytes(10))
            let token = try await harness.login()
            let path = GatewayPaths.filling(GatewayPaths.updateFile, ["id": image.id])
            let reply = try await harness.send(.get, path, token: token, headers: Self.range("bytes=10-"))
            #expect(reply.status == 416 && reply.header("Content-Range") == "bytes */10")
            #expect(reply.error?.code == GatewayErrorCode.rangeNotSatisfiable)
            let unknown = try await harness.send(
                .get, GatewayPaths.filling(GatewayPaths.updateFile, ["id": "upd_nope"]), token: token)
            #expect(unknown.status == 404)
            let anonymous = try await harness.send(.get, path)
            #expect(anonymous.status == 401)
        }
    }

    @Test(arguments: GatewayTestEngine.allCases) func headAnswersTheHeadersWithoutTheBytes(engine: GatewayTestEngine) async throws {
        try await GatewayHarness.with(engine: engine) { harness in
            let image = try await UpdateTestSupport.published(harness, version: "2.0", bytes: UpdateTestSupport.bytes(300))
            let token = try await harness.login()
            let path = GatewayPaths.filling(GatewayPaths.updateFile, ["id": image.id])
            let head = try await harness.send(.head, path, token: token)
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "300")
            #expect(head.header("ETag") == "\"\(image.sha256)\"")
            let ranged = try await harness.send(.head, path, token: token, headers: Self.range("bytes=100-199"))
            #expect(ranged.status == 206 && ranged.header("Content-Range") == "bytes 100-199/300")
        }
    }

    @Test(arguments: [
        ("bytes=0-9", ByteRange.part(offset: 0, length: 10)),
        ("bytes=5-", .part(offset: 5, length: 95)),
        ("bytes=90-500", .part(offset: 90, length: 10)),
        ("bytes=-30", .part(offset: 70, length: 30)),
        ("bytes=-500", .part(offset: 0, length: 100)),
        ("BYTES = 1-1", .whole),
        ("bytes= 1-1 ", .part(offset: 1, length: 1)),
        ("bytes=100-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=9-3", .whole),
        ("bytes=0-1,4-5", .whole),
        ("items=0-1", .whole),
        ("bytes=a-b", .whole),
        ("bytes=", .whole),
    ])
    func rangeHeadersResolve(header: String, expected: ByteRange) {
        #expect(ByteRange.resolve(header, size: 100) == expected)
    }

    @Test(arguments: [
        ("1.10", "1.9", 1), ("2.0", "2", 0), ("2.0.1", "2", 1), ("1.0a", "1.0", 1), ("1.a", "1.10", 1),
        ("010", "9", 1), ("7", "7", 0), ("1.2.3", "1.2.4", -1), ("b", "a", 1),
    ])
    func versionsCompareDotByDot(a: String, b: String, order: Int) {
        #expect(UpdateVersion.compare(a, b) == order)
        #expect(UpdateVersion.compare(b, a) == -order)
    }
}
