import Foundation
import GatewayAPI
import MPOSCore
import SandboxCards
import Testing

@testable import MPOSKit

/// A sale's `callbackURL` from the app to the gateway and back out: the real sandbox gateway
/// posts the outcome to an HTTP receiver on an ephemeral loopback port.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CallbackURLEndToEndTests {
    @Test func aSalesCallbackURLReceivesItsOutcomeFromTheGateway() async throws {
        let received = Locked<[ScriptedHTTPServer.Request]>([])
        let receiver = try await ScriptedHTTPServer { request in
            received.withLock { $0.append(request) }
            return .send(ScriptedHTTPServer.answer(200, "{}"))
        }
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        let result = try await terminal.sale(
            PaymentParameters(
                amount: 15_00, currency: .eur, externalID: "order-17",
                callbackURL: "http://127.0.0.1:\(receiver.port)/orders/17/paid"))
        #expect(result.status == .approved)
        // The gateway posts after its answer, on its own; the receiver has it once it is read.
        while received.withLock({ $0.isEmpty }), !Task.isCancelled { await Task.yield() }
        let request = try #require(received.withLock { $0.first })
        #expect(request.line.hasPrefix("POST /orders/17/paid"))
        let payload = try GatewayJSON.makeDecoder().decode(WebhookPayload.self, from: Data(request.body.utf8))
        #expect(payload.uniqueID == result.transactionID?.rawValue)
        #expect(payload.state == .approved && payload.amount == 15_00 && payload.currency == .eur)
        #expect(payload.cardNumber == result.maskedPAN)
        for card in SandboxCards.all {
            #expect(!request.body.contains(card.pan.unmaskedDigits), "\(card.id)")
        }
        try await sandbox.close(terminal)
        await receiver.close()
    }

    @Test func aCallbackURLTheGatewayMayNotPostToIsRefusedBeforeTheCardIsRead() async throws {
        let sandbox = try await Sandbox()
        let terminal = try await sandbox.terminal()
        await #expect(throws: MPOSError.invalidArgument) {
            try await terminal.sale(
                PaymentParameters(amount: 15_00, currency: .eur, callbackURL: "http://shop.example.com/paid"))
        }
        #expect(try await terminal.reports.searchTransactions().items.isEmpty)
        try await sandbox.close(terminal)
    }
}
