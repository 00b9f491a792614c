import Crypto
import Foundation
import GatewayAPI
import MPOSCore
import NIOSSL
import SandboxGateway
import SwiftASN1
import Testing
import X509

@testable import MPOSKit
@testable import MPOSKitNIO

/// A sale over HTTPS against the sandbox gateway serving a certificate made for the test,
/// which the client trusts explicitly; and what happens when it does not.
@Suite(.timeLimit(.minutes(2))) struct GatewayTLSTests {
    @Test func aSaleRunsOverTLSWithTheSelfSignedCertificateTrusted() async throws {
        let identity = try TestCertificate()
        let sandbox = try await Sandbox(gatewayTLS: identity.gatewayTLS)
        #expect(sandbox.gateway.baseURL.scheme == "https")
        let transport = try NIOGatewayTransport(tlsConfiguration: identity.trustingClient)
        let terminal = try await sandbox.terminal(transport: transport)
        let result = try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        #expect(result.status == .approved)
        #expect(result.authorizationCode?.count == 6)
        let page = try await terminal.reports.searchTransactions()
        #expect(page.items.filter { $0.kind == .sale }.count == 1)
        // Login, merchant, authorization, search: one TLS connection, kept between requests.
        #expect(transport.openedConnectionCount == 1)
        await transport.shutdown()
        try await sandbox.close(terminal)
    }

    @Test func anUntrustedCertificateIsATypedErrorAndNothingIsCharged() async throws {
        let identity = try TestCertificate()
        let sandbox = try await Sandbox(gatewayTLS: identity.gatewayTLS)
        // Trusts another self-signed certificate, and the system's roots: not the gateway's.
        let stranger = try TestCertificate()
        let untrusting = try NIOGatewayTransport(tlsConfiguration: stranger.trustingClient)

        let terminal = try PaymentTerminal(
            environment: sandbox.gateway.baseURL,
            credentials: .login(user: sandbox.credentials.user, password: sandbox.credentials.password),
            journalPath: sandbox.journalPath, transport: untrusting)
        do {
            try await terminal.login()
            Issue.record("logged in over an untrusted certificate")
        } catch {
            #expect(error.code == MPOSError.Code.gatewayUnreachable)
            #expect(error.message.contains("the gateway's TLS certificate is not trusted"))
        }
        await #expect(throws: MPOSError.self) {
            try await terminal.sale(PaymentParameters(amount: 12_34, currency: .eur))
        }

        // An authorization sent straight through the transport never reaches the gateway.
        let authorization = GatewayHTTPRequest(
            method: "POST", path: GatewayPaths.authorizeCard,
            headers: ["Content-Type": "application/json", GatewayHeaders.idempotencyKey: "tls-untrusted-1"],
            body: Data("{}".utf8))
        do {
            let response = try await untrusting.send(authorization, to: sandbox.gateway.baseURL)
            Issue.record("the untrusted gateway answered \(response.status)")
        } catch {
            #expect(error.reason == "the gateway's TLS certificate is not trusted")
        }
        // No connection ever came up past the handshake.
        #expect(untrusting.openedConnectionCount == 0)
        await untrusting.shutdown()

        // Nothing was charged: a client that trusts the certificate finds no transaction.
        let trusting = try NIOGatewayTransport(tlsConfiguration: identity.trustingClient)
        let checker = try await sandbox.terminal(transport: trusting, connect: false)
        #expect(try await checker.reports.searchTransactions().totalCount == 0)
        await trusting.shutdown()
        try await sandbox.close(checker)
    }

    @Test func aPlainHTTPGatewayBehindAnHTTPSURLIsATypedTLSError() async throws {
        let sandbox = try await Sandbox()
        var components = try #require(URLComponents(url: sandbox.gateway.baseURL, resolvingAgainstBaseURL: false))
        components.scheme = "https"
        let url = try #require(components.url)
        let transport = NIOGatewayTransport()
        do {
            let response = try await transport.send(GatewayHTTPRequest(method: "GET", path: GatewayPaths.health), to: url)
            Issue.record("a plain HTTP gateway answered over TLS: \(response.status)")
        } catch {
            #expect(error.reason == "TLS handshake failed")
        }
        await transport.shutdown()
        try await sandbox.close()
    }

    @Test func unreadableIdentitiesAreTypedErrors() throws {
        let identity = try TestCertificate()
        #expect(throws: SandboxGatewayTLSError.self) {
            try SandboxGatewayTLS(certificatePEM: "not a certificate", privateKeyPEM: identity.privateKeyPEM)
        }
        #expect(throws: SandboxGatewayTLSError.self) {
            try SandboxGatewayTLS(certificatePEM: identity.certificatePEM, privateKeyPEM: "not a key")
        }
        #expect(throws: SandboxGatewayTLSError.self) {
            try SandboxGatewayTLS(certificatePEMFile: "/nonexistent/cert.pem", privateKeyPEMFile: "/nonexistent/key.pem")
        }
        let parsed = try SandboxGatewayTLS(certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM)
        #expect(parsed.certificateChain.count == 1)
    }
}

/// A self-signed P-256 certificate for 127.0.0.1 and localhost, made at run time so that no
/// key is committed.
struct TestCertificate {
    let certificatePEM: String
    let privateKeyPEM: String

    init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("MPOSKit test gateway") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
            },
            issuerPrivateKey: .init(key))
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
    }

    /// The gateway's side: serve this certificate.
    var gatewayTLS: SandboxGatewayTLS {
        get throws { try SandboxGatewayTLS(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM) }
    }

    /// The client's side: trust this certificate besides the system's roots.
    var trustingClient: TLSConfiguration {
        get throws {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)))]
            return configuration
        }
    }
}
