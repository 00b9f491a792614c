import Foundation
import NIOSSL

/// The certificate and private key a sandbox gateway serves HTTPS with.
///
/// ```swift
/// var configuration = SandboxGatewayConfiguration(databasePath: "/tmp/sandbox.sqlite")
/// configuration.tls = try SandboxGatewayTLS(certificatePEMFile: "cert.pem", privateKeyPEMFile: "key.pem")
/// let gateway = try await SandboxGateway.start(configuration)  // gateway.baseURL is https://…
/// ```
///
/// A client trusts a self-signed sandbox certificate explicitly, for instance by adding it to
/// `NIOGatewayTransport`'s `tlsConfiguration.additionalTrustRoots`.
public struct SandboxGatewayTLS: Sendable {
    /// The server's certificate first, then any intermediates.
    public var certificateChain: [NIOSSLCertificate]
    /// The private key of the first certificate.
    public var privateKey: NIOSSLPrivateKey

    /// Serves with `certificateChain` and `privateKey`.
    public init(certificateChain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// Reads the certificate chain and private key from PEM text.
    ///
    /// - Throws: ``SandboxGatewayTLSError`` when either does not parse.
    public init(certificatePEM: String, privateKeyPEM: String) throws(SandboxGatewayTLSError) {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)) } catch {
            throw SandboxGatewayTLSError(reason: "the certificate is not PEM (\(error))")
        }
        guard !chain.isEmpty else { throw SandboxGatewayTLSError(reason: "the certificate PEM holds no certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem) } catch {
            throw SandboxGatewayTLSError(reason: "the private key is not PEM (\(error))")
        }
        self.init(certificateChain: chain, privateKey: key)
    }

    /// Reads the certificate chain and private key from PEM files.
    ///
    /// - Throws: ``SandboxGatewayTLSError`` when a file cannot be read or does not parse.
    public init(certificatePEMFile: String, privateKeyPEMFile: String) throws(SandboxGatewayTLSError) {
        func read(_ path: String) throws(SandboxGatewayTLSError) -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw SandboxGatewayTLSError(reason: "cannot read \(path)")
            }
        }
        try self.init(certificatePEM: read(certificatePEMFile), privateKeyPEM: read(privateKeyPEMFile))
    }

    /// The server side of the TLS handshake.
    var serverConfiguration: TLSConfiguration {
        .makeServerConfiguration(certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }
}

/// Why a ``SandboxGatewayTLS`` could not be made.
public struct SandboxGatewayTLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, without key material.
    public var reason: String

    /// `SandboxGatewayTLSError: <reason>`.
    public var description: String { "SandboxGatewayTLSError: \(reason)" }
}

extension SandboxGatewayConfiguration {
    /// `https` when the gateway serves TLS, `http` otherwise.
    var scheme: String { tls == nil ? "http" : "https" }
}
