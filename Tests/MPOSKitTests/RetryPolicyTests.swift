import Foundation
import Testing

@testable import MPOSKit

/// The one retry policy the engine and the terminal share.
@Suite(.timeLimit(.minutes(2)))
struct RetryPolicyTests {
    @Test func thePauseBetweenLookupsDoublesUpToEightSeconds() {
        let delays = (1...7).map { RetryPolicy.standard.delay(afterLookups: $0) }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)])
    }

    @Test func theStandardPolicyLooksUpEightTimesAndResendsThree() {
        let policy = RetryPolicy.standard
        #expect((0..<8).allSatisfy { policy.mayLookUpAgain(after: $0) } && !policy.mayLookUpAgain(after: 8))
        #expect((0..<3).allSatisfy { policy.mayResend(after: $0) } && !policy.mayResend(after: 3))
    }

    @Test func oneLookupStopsAfterTheFirst() {
        #expect(RetryPolicy.oneLookup.mayLookUpAgain(after: 0) && !RetryPolicy.oneLookup.mayLookUpAgain(after: 1))
        #expect(RetryPolicy.oneLookup.maximumResends == RetryPolicy.standard.maximumResends)
    }

    @Test func aSafeRequestPausesFromAQuarterSecondDoublingUntilTheDeadline() {
        let policy = RetryPolicy.standard
        let lost = GatewayTransportError(reason: "connection closed before an answer")
        var elapsed = Duration.zero
        var pauses: [Duration] = []
        while let pause = policy.pauseBeforeResendingSafeRequest(after: pauses.count + 1, elapsed: elapsed, error: lost) {
            pauses.append(pause)
            elapsed += pause
        }
        #expect(policy.safeRequestDeadline == .seconds(15))
        #expect(pauses == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .milliseconds(7_250)])
        // Time spent waiting for answers counts too: a send that took 14 s leaves 1 s.
        #expect(policy.pauseBeforeResendingSafeRequest(after: 6, elapsed: .seconds(14), error: lost) == .seconds(1))
        #expect(policy.pauseBeforeResendingSafeRequest(after: 1, elapsed: .seconds(15), error: lost) == nil)
    }

    @Test func aFailureThatCannotHealIsNeverRetried() {
        let untrusted = GatewayTransportError(reason: "the gateway's TLS certificate is not trusted", isPermanent: true)
        #expect(RetryPolicy.standard.pauseBeforeResendingSafeRequest(after: 1, elapsed: .zero, error: untrusted) == nil)
    }

    @Test func theEngineFollowsThePolicyItIsGiven() {
        var engine = PaymentEngine(
            parameters: PaymentParameters(amount: 12_34, currency: .eur), key: PaymentEngineTests.key,
            readerTransactionID: "r1", merchantName: nil, now: Date(timeIntervalSince1970: 0),
            retry: RetryPolicy(maximumLookups: 2, maximumResends: 0))
        _ = engine.handle(.start)
        _ = engine.handle(.reader(PaymentEngineTests.authorization))
        #expect(engine.handle(.gatewayUnreachable).contains(.lookup(PaymentEngineTests.key, delay: .zero)))
        #expect(engine.handle(.lookedUp(.unreachable)) == [.lookup(PaymentEngineTests.key, delay: .milliseconds(500))])
        // The second lookup was the last: the card is told the gateway could not be reached.
        let last = engine.handle(.lookedUp(.unreachable))
        #expect(!last.contains { if case .lookup = $0 { true } else { false } })
        #expect(last.contains { if case .sendToReader(.hostResponse) = $0 { true } else { false } })
    }
}
