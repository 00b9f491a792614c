import GatewayAPI
import Testing

@testable import MPOSKit

/// The one rule for a request whose answer may be lost: look it up by its key, send it again
/// only when the other side never saw it, and leave it unknown when asking runs out.
@Suite(.timeLimit(.minutes(1))) struct LookupThenResendTests {
    typealias Rule = LookupThenResend<String>

    @Test func anAnsweredRequestIsSettledWithoutALookup() {
        var rule = Rule(policy: .standard)
        #expect(rule.start == .send)
        #expect(rule.handle(.answered("ok")) == .settled("ok"))
        #expect(rule.lookups == 0 && rule.resends == 0)
    }

    @Test func aLostAnswerIsLookedUpAtOnceAndAFoundOneIsNeverSentAgain() {
        var rule = Rule(policy: .standard)
        #expect(rule.handle(.unanswered) == .lookUp(after: .zero))
        #expect(rule.handle(.found("stored")) == .settled("stored"))
        #expect(rule.resends == 0)
    }

    @Test func onlyARequestTheOtherSideNeverSawIsSentAgainAndNoMoreThanThePolicySays() {
        var rule = Rule(policy: RetryPolicy(maximumLookups: 8, maximumResends: 2))
        #expect(rule.handle(.unanswered) == .lookUp(after: .zero))
        #expect(rule.handle(.notFound) == .send)
        #expect(rule.handle(.unanswered) == .lookUp(after: .milliseconds(500)))
        #expect(rule.handle(.notFound) == .send)
        #expect(rule.handle(.unanswered) == .lookUp(after: .seconds(1)))
        // Resends used up: the request never arrived, and nothing happened.
        #expect(rule.handle(.notFound) == .neverArrived)
        #expect(rule.resends == 2)
    }

    @Test func lookupsWithoutAnAnswerPauseLongerEachTimeThenLeaveTheOutcomeUnknown() {
        var rule = Rule(policy: RetryPolicy(maximumLookups: 4, maximumResends: 3))
        #expect(rule.handle(.unanswered) == .lookUp(after: .zero))
        #expect(rule.handle(.pending("down")) == .lookUp(after: .milliseconds(500)))
        #expect(rule.handle(.pending("down")) == .lookUp(after: .seconds(1)))
        #expect(rule.handle(.pending("down")) == .lookUp(after: .seconds(2)))
        #expect(rule.handle(.pending("still down")) == .unknown(reason: "still down", hopeless: false))
        #expect(rule.resends == 0)
    }

    @Test func refusedCredentialsStopTheLookupsAtOnce() {
        var rule = Rule(policy: .standard)
        _ = rule.handle(.unanswered)
        #expect(rule.handle(.hopeless("refused")) == .unknown(reason: "refused", hopeless: true))
    }

    @Test func aDeadlineBoundsThePausesAddedUpAndASettlementNeverResends() {
        var rule = Rule(policy: .settlement(within: .seconds(3)))
        #expect(rule.handle(.unanswered) == .lookUp(after: .zero))
        #expect(rule.handle(.pending(nil)) == .lookUp(after: .milliseconds(500)))
        #expect(rule.handle(.pending(nil)) == .lookUp(after: .seconds(1)))
        // 1.5 s waited; 2 s more would pass the 3 s deadline.
        #expect(rule.handle(.pending("busy")) == .unknown(reason: "busy", hopeless: false))
        var other = Rule(policy: .settlement(within: .seconds(3)))
        _ = other.handle(.unanswered)
        #expect(other.handle(.notFound) == .neverArrived)
    }

    @Test func aServerErrorOrAnAnswerInProgressIsNoAnswerForTheGateway() {
        let serverError = GatewayAnswer.refused(status: 503, .init(code: 5030, message: "down"))
        let refused = GatewayAnswer.refused(status: 422, .init(code: 4220, message: "declined"))
        #expect(GatewayDelivery.event(answer: serverError) == .unanswered)
        #expect(GatewayDelivery.event(answer: refused) == .answered(refused))
        #expect(
            GatewayDelivery.event(.sessionRefused)
                == .hopeless("the gateway refused the session and a new login"))
    }
}
