import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mpos gateway publish-update` as a user runs it: the real binary signs an image into the
/// database of a running `mpos gateway serve`, which lists it and serves its bytes.
@Suite(.serialized, .timeLimit(.minutes(2))) struct GatewayPublishUpdateCommandTests {
    /// A file of `bytes` in `directory`.
    static func file(_ bytes: [UInt8], in directory: URL, named name: String = "image.bin") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func anImagePublishedIntoARunningGatewaysDatabaseIsListedAndServed() async throws {
        let gateway = try PaymentCommandTests.ServedGateway()
        defer { _ = gateway.stop() }
        let database = gateway.directory.appendingPathComponent("gateway.sqlite").path
        let image = try Self.file(Array("firmware 2.1.0\n".utf8), in: gateway.directory)
        let run = try PaymentCommandTests.run([
            "gateway", "publish-update", "--db", database, "--model", "MPOS-1", "--kind", "firmware",
            "--version", "2.1.0", "--file", image, "--deadline", "2027-01-31T00:00:00Z",
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
        let lines = run.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let fields = Dictionary(uniqueKeysWithValues: lines.map { (String($0[0]), $0.dropFirst().joined(separator: " ")) })
        #expect(fields["model"] == "MPOS-1" && fields["kind"] == "firmware" && fields["version"] == "2.1.0")
        // SHA-256 and MD5 of "firmware 2.1.0\n".
        #expect(fields["size"] == "15")
        #expect(fields["sha256"] == "8dc405734cb77eeebe9ec091bab5957a4cc3a3bacaa20e48802b67bdd7449ce0")
        #expect(fields["md5"] == "1ed8d15ee6bd920464a1332b4e236a39")
        #expect(fields["channel"] == "production" && fields["deadline"] == "2027-01-31T00:00:00Z")
        let id = try #require(fields["id"])
        #expect(id.hasPrefix("upd_"))

        let json = try PaymentCommandTests.run([
            "gateway", "publish-update", "--db", database, "--model", "MPOS-1", "--kind", "configuration",
            "--version", "7", "--file", image, "--channel", "test", "--json",
        ])
        #expect(json.status == 0, "stderr: \(json.err)")
        let object = try PaymentCommandTests.object(json.out)
        #expect(object["kind"] as? String == "configuration" && object["channel"] as? String == "test")
        #expect((object["signature"] as? String)?.count == 128 && object["deadline"] == nil)

        // The running gateway serves what the command published.
        let login = try await Self.post(
            "\(gateway.url)/v1/auth/login", json: ["user": gateway.user, "password": gateway.password])
        let token = try #require(try PaymentCommandTests.object(login)["accessToken"] as? String)
        let list = try await Self.get("\(gateway.url)/v1/updates", token: token)
        let images = try #require(try PaymentCommandTests.object(String(decoding: list, as: UTF8.self))["images"] as? [[String: Any]])
        #expect(images.map { $0["id"] as? String } == [object["id"] as? String, id])
        #expect(try await Self.get("\(gateway.url)/v1/updates/\(id)/file", token: token) == Data("firmware 2.1.0\n".utf8))
    }

    @Test(arguments: [
        (["--kind", "emv"], "--kind must be firmware or configuration, not 'emv'."),
        (["--channel", "staging"], "--channel must be test or production, not 'staging'."),
        (["--deadline", "tomorrow"], "--deadline must be an ISO 8601 date-time"),
        (["--file", "/nonexistent/image.bin"], "--file /nonexistent/image.bin: cannot read the image file."),
        (["--file", "EMPTY"], "the image file is empty."),
        (["--version", "1.0.0"], "Version 1.0.0 of the MPOS-1 firmware is already published on the production channel."),
    ])
    func badArgumentsExitOneWithOneLine(change: [String], message: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("g.sqlite").path
        let image = try Self.file([1, 2, 3], in: directory)
        let empty = try Self.file([], in: directory, named: "empty.bin")
        var options = [
            "--model": "MPOS-1", "--kind": "firmware", "--version": "1.0.0", "--file": image, "--channel": "production",
        ]
        let base = ["gateway", "publish-update", "--db", database]
        let first = try PaymentCommandTests.run(base + options.flatMap { [$0.key, $0.value] })
        #expect(first.status == 0, "stderr: \(first.err)")
        options[change[0]] = change[1] == "EMPTY" ? empty : change[1]
        if change[0] == "--version" { options["--file"] = image }
        let run = try PaymentCommandTests.run(base + options.flatMap { [$0.key, $0.value] })
        #expect(run.status == 1 && run.out.isEmpty)
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1 && run.err.contains(message), "stderr: \(run.err)")
    }

    static func post(_ url: String, json: [String: String]) async throws -> String {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        return String(decoding: try await URLSession.shared.data(for: request).0, as: UTF8.self)
    }

    static func get(_ url: String, token: String) async throws -> Data {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return try await URLSession.shared.data(for: request).0
    }
}
