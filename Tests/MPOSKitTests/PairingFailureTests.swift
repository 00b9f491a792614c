import Foundation
import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// What `connectReader` says when pairing fails: a dropped link points at the link, and only
/// a reader holding another secret points at the secret.
@Suite(.timeLimit(.minutes(2)))
struct PairingFailureTests {
    private static func terminal(in directory: URL) throws -> PaymentTerminal {
        try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: DroppingTransport())
    }

    private static func secret(_ byte: UInt8) throws -> SharedSecret {
        try SharedSecret(bytes: [UInt8](repeating: byte, count: 32))
    }

    private static func pairingError(
        readerSide: @escaping @Sendable (InProcessTransport) async -> Void
    ) async throws -> MPOSError {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mposkit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try terminal(in: directory)
        let (sdkSide, peer) = InProcessTransport.makePair()
        let reader = Task { await readerSide(peer) }
        defer { reader.cancel() }
        let secret = try secret(0xA1)
        do {
            try await terminal.reader.connect(transport: sdkSide, secret: secret)
        } catch {
            return error
        }
        Issue.record("pairing succeeded")
        return MPOSError.readerLinkFailed
    }

    @Test func aLinkClosedByTheReaderAfterTheHelloIsALinkFailure() async throws {
        let error = try await Self.pairingError { peer in
            // The reader hears the hello, then the link drops before it answers.
            for await _ in peer.incoming { break }
            await peer.close()
        }
        #expect(error.code == MPOSError.Code.readerLinkFailed)
        #expect(
            error.message
                == "The reader could not be paired: the link closed during pairing (the reader or the network dropped it).")
        #expect(!error.message.lowercased().contains("secret"))
    }

    @Test func aReaderHoldingAnotherSecretSaysToCheckTheSecret() async throws {
        let readerSecret = try Self.secret(0xB2)
        let error = try await Self.pairingError { peer in
            _ = try? await ReaderDeviceSession.accept(transport: peer, secret: readerSecret)
        }
        #expect(error.code == MPOSError.Code.readerSharedSecretMismatch)
        #expect(error.message == "The reader holds a different shared secret; check the secret configured for it.")
    }
}
