import Foundation
import MPOSCore
import ReaderLinkTCP
import ReaderSimulator
import Testing

@testable import MPOSKit

/// A reader emulator started again against a gateway that keeps running: the fresh emulator's
/// KSNs and its chips' counters are not ones the gateway has seen, so the same card is not
/// refused as a replayed cryptogram.
@Suite(.timeLimit(.minutes(2))) struct EmulatorRestartTests {
    @Test func aFreshEmulatorIsNotRefusedAsAReplayByALongLivedGateway() async throws {
        let sandbox = try await Sandbox()
        let first = try await sandbox.terminal()
        for amount: Int64 in [12_01, 12_02, 12_03] {
            let result = try await first.sale(PaymentParameters(amount: amount, currency: .eur))
            #expect(result.status == .approved, "\(amount): \(result.responseCode ?? "-")")
        }
        await first.disconnect()

        // The same card in a new emulator, started ten minutes later.
        let reader = SimulatedReader(
            configuration: SimulatedReaderConfiguration(secret: Sandbox.secret),
            now: { Date().addingTimeInterval(600) })
        let server = try await TCPReaderServer.bind(host: "127.0.0.1", port: 0)
        let connections = server.connections
        // Unstructured: serves the emulator's connections until the server closes.
        let serving = Task { for await link in connections { await reader.serve(link) } }
        let second = try await sandbox.terminal(connect: false)
        let link = try await TCPTransport.connect(host: "127.0.0.1", port: server.port)
        try await second.reader.connect(transport: link, secret: Sandbox.secret)
        let result = try await second.sale(PaymentParameters(amount: 12_04, currency: .eur))
        #expect(result.status == .approved, "\(result.responseCode ?? "-")")
        await second.disconnect()
        await server.close()
        serving.cancel()
        try await sandbox.close()
    }
}
