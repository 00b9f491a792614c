import Foundation
import MPOSKit
import MPOSKitNIO
import ReaderLinkTCP
import ReaderSimulator
import Testing


/// `mpos reader emulate --customer-answer`: the emulated customer answers the questions an app
/// asks on the reader's screen, over TCP to a separate process.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CustomerAnswerCommandTests {
    @Test func theEmulatedCustomerAnswersInTheScriptedOrderThenByDefault() async throws {
        let emulator = try ReaderCommandTests.Emulator.start(["--customer-answer", "no", "--customer-answer", "text:ada@example.com"])
        defer { _ = emulator.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mpos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try PaymentTerminal(
            environment: URL(string: "http://127.0.0.1:9")!, credentials: .login(user: "u", password: "p"),
            journalPath: directory.appendingPathComponent("journal.sqlite").path, transport: NIOGatewayTransport())
        let secret = try SharedSecret(hex: SimulatedReaderConfiguration.sandboxSecretHex)
        try await terminal.reader.connect(
            transport: try await TCPTransport.connect(host: "127.0.0.1", port: emulator.port), secret: secret)
        let reader = terminal.reader
        #expect(try await reader.collectInput(.init(prompt: "Join?", kind: .yesNo)) == .yesNo(false))
        #expect(try await reader.collectInput(.init(prompt: "E-mail", kind: .email)) == .text("ada@example.com"))
        #expect(try await reader.collectInput(.init(prompt: "Again?", kind: .yesNo)) == .yesNo(true))
        await terminal.disconnect()
    }

    @Test func aBadAnswerIsRefusedWithItsRule() throws {
        for (argument, rule) in [("maybe", "yes, no, choice:N"), ("choice:9", "choice:0 to choice:5"), ("text:", "1 to 120")] {
            let run = try PaymentCommandTests.run(["reader", "emulate", "--port", "0", "--customer-answer", argument])
            #expect(run.status != 0 && run.err.contains(rule), "\(argument): \(run.err)")
        }
    }
}
