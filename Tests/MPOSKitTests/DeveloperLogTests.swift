import Foundation
import GatewayAPI
import Logging
import MPOSCore
import SandboxCards
import Synchronization
import Testing

@testable import MPOSKit

/// Every line a logger was given, with its metadata, kept in memory.
final class MemoryLogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }

    /// A logger at `debug` that writes here.
    func logger() -> Logger {
        var logger = Logger(label: "test.developer-log") { label in Handler(label: label, sink: self) }
        logger.logLevel = .debug
        return logger
    }

    struct Handler: LogHandler {
        let label: String
        let sink: MemoryLogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.level) \(event.message) \(merged.sorted { $0.key < $1.key })"
            sink.lines.withLock { $0.append(line) }
        }
    }
}

/// The developer log: off by default, on at the app's word, and nothing secret in it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct DeveloperLogTests {
    @Test func redactionRemovesPasswordsTokensAuthorizationAndCardNumbers() {
        let pan = "4761739001010010"
        let headers = LogRedaction.headers([
            "Authorization": "Bearer eyJ.secret.token", "Content-Type": "application/json",
        ])
        #expect(headers == ["Authorization": "[REDACTED]", "Content-Type": "application/json"])
        let body = LogRedaction.body(
            Data(
                #"{"user":"clerk","password":"hunter2-hunter2","nested":{"accessToken":"tok-123"},"note":"card \#(pan) here","emvData":"5A0847617390"}"#
                    .utf8))
        #expect(!body.contains("hunter2") && !body.contains("tok-123") && !body.contains(pan))
        #expect(!body.contains("5A0847617390"))
        #expect(body.contains("476173******0010") && body.contains("clerk"))
    }

    @Test func aSaleIsLoggedRequestByRequestAndRecordedWithNoSecretInAnyLine() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let lines = MemoryLogLines()
        // Off by default: the login and connection above wrote nothing.
        terminal.setDeveloperLogging(lines.logger())
        try await terminal.login()
        let result = try await terminal.sale(PaymentParameters(amount: 12_00, currency: .eur))
        #expect(result.status == .approved)
        let log = lines.all
        #expect(log.contains { $0.contains("gateway request") && $0.contains("/v1/auth/login") })
        #expect(log.contains { $0.contains("gateway response") && $0.contains(#"(key: "status", value: 200)"#) })
        #expect(log.contains { $0.contains("gateway request") && $0.contains(GatewayPaths.authorizeCard) })
        let record = try #require(log.first { $0.hasPrefix("info payment") })
        #expect(record.contains(result.transactionID?.rawValue ?? "missing") && record.contains("approved"))

        let text = log.joined(separator: "\n")
        #expect(!text.contains(sandbox.credentials.password))
        let sale = try #require(
            log.first { $0.contains("gateway request") && $0.contains(GatewayPaths.authorizeCard) })
        #expect(sale.contains(#"(key: "Authorization", value: "[REDACTED]")"#))
        #expect(sale.contains(#""encryptedCardData":"[REDACTED]""#))
        #expect(!text.contains("Bearer "))
        for card in SandboxCards.all { #expect(!text.contains(card.pan.unmaskedDigits), "\(card.id)") }

        terminal.setDeveloperLogging(nil)
        let before = lines.all.count
        _ = try await terminal.sale(PaymentParameters(amount: 13_00, currency: .eur))
        #expect(lines.all.count == before)
        try await sandbox.close(terminal)
    }
}
