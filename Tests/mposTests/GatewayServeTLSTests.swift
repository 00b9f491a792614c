import Foundation
import Testing

/// `mpos gateway serve --tls-certificate … --tls-key …`: the flags go together and name
/// readable PEM files, or the command stops before it binds anything.
@Suite(.timeLimit(.minutes(2))) struct GatewayServeTLSTests {
    @Test func aCertificateWithoutAKeyIsRefused() throws {
        let run = try EMVDecodeBinaryTests.run(["gateway", "serve", "--port", "0", "--tls-certificate", "cert.pem"])
        #expect(run.status != 0)
        #expect(run.err.contains("--tls-certificate and --tls-key go together"))
        #expect(!run.out.contains("listening on"))
    }

    @Test func unreadablePEMFilesAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try EMVDecodeBinaryTests.run([
            "gateway", "serve", "--port", "0", "--db", directory.appendingPathComponent("gateway.sqlite").path,
            "--tls-certificate", directory.appendingPathComponent("missing-cert.pem").path,
            "--tls-key", directory.appendingPathComponent("missing-key.pem").path,
        ])
        #expect(run.status != 0)
        #expect(run.err.contains("cannot read"))
        #expect(!run.out.contains("listening on"))
    }
}
