import Foundation
import MPOSCore
import MPOSTestSupport
import ReaderLink
import ReaderLinkTCP
import Testing

@testable import ReaderSimulator

/// A reader serves one SDK at a time: a second SDK is refused with the reason and who holds
/// the reader, the first carries on, and a holder that vanished without closing its link is
/// replaced only after the idle limit.
@Suite(.timeLimit(.minutes(2)))
struct ReaderInUseTests {
    static let secret = SimulatedReaderTests.secret

    /// A signal the test awaits: the first SDK's transaction is waiting for the card.
    static func waitingForCard() -> (AsyncStream<Void>, @Sendable (ReaderMessage) async -> Void) {
        let (stream, signal) = AsyncStream.makeStream(of: Void.self)
        return (stream, { event in
            if case .statusReport(let report) = event, report.status == .waitingCard { signal.yield() }
        })
    }

    @Test func aSecondSDKIsRefusedNamingTheHolderAndTheFirstStillCompletesItsSale() async throws {
        var configuration = SimulatedReaderConfiguration(secret: Self.secret)
        configuration.waitsForCard = true
        let reader = SimulatedReader(configuration: configuration)
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        // Unstructured: the reader serves each accepted link, as the emulator does, until cancelled.
        let serving = Task { for await link in connections { Task { await reader.serve(link) } } }
        defer { serving.cancel() }

        let first = try await ReaderConnection.open(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: server.port), secret: Self.secret)
        let (waiting, onEvent) = Self.waitingForCard()
        async let sale = SimulatedReaderTests.transact(first, amount: 1_234, onEvent: onEvent)
        var signals = waiting.makeAsyncIterator()
        _ = await signals.next()

        let secondLink = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        var refusal: ReaderLinkError?
        do { _ = try await ReaderConnection.open(transport: secondLink, secret: Self.secret) } catch {
            refusal = error
        }
        guard case .readerInUse(let holder)? = refusal else {
            Issue.record("the second SDK was not refused as in use: \(String(describing: refusal))")
            return
        }
        #expect(holder.hasPrefix("127.0.0.1:") && holder != "127.0.0.1:\(server.port)", "\(holder)")
        #expect(refusal?.mposError.code == MPOSError.Code.readerInUse)

        // The first SDK's transaction goes on to its approval on the same link.
        try await reader.present(cardID: "visa-credit")
        let run = try await sale
        #expect(run.outcome?.cryptogramType == .tc)
        #expect(run.decision?.isApproved == true)
        #expect(try await first.request(.ping) == .pong)
        #expect(await reader.completedTransactions == 1)
        await first.close()
        await server.close()
    }

    @Test func discoveredInProcessReadersRefuseASecondSDKToo() async throws {
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret))
        let first = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        await #expect(throws: ReaderLinkError.readerInUse(by: "another terminal")) {
            _ = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        }
        #expect(try await first.request(.ping) == .pong)
        // Once the first SDK leaves, the next one pairs.
        await first.close()
        let next = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        #expect(try await next.request(.ping) == .pong)
        await next.close()
    }

    /// An app that disconnects and connects again at once: its old link has closed, but the
    /// reader has not finished with it yet. The new SDK takes the reader, not a refusal.
    @Test func aHolderWhoseLinkClosedIsReplacedBeforeTheReaderHasFinishedWithIt() async throws {
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret))
        let (sdkSide, readerSide) = InProcessTransport.makePair()
        async let opened = ReaderConnection.open(transport: sdkSide, secret: Self.secret)
        let old = try await ReaderDeviceSession.accept(transport: readerSide, secret: Self.secret)
        let sdk = try await opened
        await reader.setHolderForTest(SimulatedReader.Holder(id: 1, peer: "127.0.0.1:50001", session: old))
        // A holder whose link is open is still refused.
        #expect(await reader.admit(SimulatedReader.Holder(id: 2, peer: "127.0.0.1:50002")) == .inUse(by: "127.0.0.1:50001"))
        await sdk.close()
        while await !old.isClosed { await Task.yield() }
        #expect(await reader.admit(SimulatedReader.Holder(id: 3, peer: "127.0.0.1:50003")) == .admit)
        #expect(await reader.holder?.id == 3)
    }

    @Test func aHolderSilentPastTheIdleLimitIsReplaced() async throws {
        let clock = ManualClock()
        let reader = SimulatedReader(configuration: SimulatedReaderConfiguration(secret: Self.secret), clock: clock)
        // The first SDK pairs, then goes quiet, as a peer that vanished without closing would.
        let first = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        #expect(try await first.request(.ping) == .pong)

        clock.advance(by: ReaderLinkProtocol.idleLinkLimit)
        await #expect(throws: ReaderLinkError.readerInUse(by: "another terminal")) {
            _ = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        }
        clock.advance(by: .seconds(1))
        let second = try await ReaderConnection.open(transport: try await reader.discovered.open(), secret: Self.secret)
        #expect(try await second.request(.ping) == .pong)
        await #expect(throws: ReaderLinkError.linkClosed) { _ = try await first.request(.ping) }
        await second.close()
    }
}

extension SimulatedReader {
    /// Puts `holder` in as the SDK the reader serves, as a paired link would.
    fileprivate func setHolderForTest(_ holder: Holder) { self.holder = holder }
}
