import SandboxCards
import Testing

/// Amount triggers: the Handpoint simulator amounts and Adyen's last-three-digit refusals.
@Suite(.timeLimit(.minutes(2))) struct ScenarioTests {
    @Test func handpointAmounts() {
        #expect(SandboxScenario.forAmount(minor: 1000) == .declined)
        #expect(SandboxScenario.forAmount(minor: 2000) == .userCancelled)
        #expect(SandboxScenario.forAmount(minor: 3000) == .signatureRequested)
        #expect(SandboxScenario.forAmount(minor: 1001) == nil)
        #expect(SandboxScenario.forAmount(minor: 10000) == nil)
    }

    @Test func timeoutsTakeTheCentsAsSeconds() {
        #expect(SandboxScenario.forAmount(minor: 8000) == .timeout(seconds: 0))
        #expect(SandboxScenario.forAmount(minor: 8015) == .timeout(seconds: 15))
        #expect(SandboxScenario.forAmount(minor: 8099) == .timeout(seconds: 99))
        #expect(SandboxScenario.forAmount(minor: 8100) == nil)
    }

    @Test func linkErrorsAreDistinct() {
        let kinds = (9001...9005).compactMap { amount -> SandboxScenario.LinkError? in
            if case .linkError(let kind) = SandboxScenario.forAmount(minor: Int64(amount)) { return kind }
            return nil
        }
        #expect(kinds.count == 5)
        #expect(Set(kinds).count == 5)
        #expect(SandboxScenario.forAmount(minor: 9000) == nil)
        #expect(SandboxScenario.forAmount(minor: 9006) == nil)
    }

    @Test(arguments: [
        (Int64(124), SandboxRefusal.notEnoughBalance, "51"), (1125, .cardBlocked, "62"),
        (20126, .cardExpired, "54"),
        (127, .invalidAmount, "13"), (5128, .invalidCard, "14"), (10134, .wrongPIN, "55"),
    ])
    func refusalsByLastThreeDigits(amount: Int64, refusal: SandboxRefusal, code: String) {
        #expect(SandboxScenario.forAmount(minor: amount) == .refusal(refusal))
        #expect(SandboxScenario.forAmount(minor: amount)?.issuerResponseCode == code)
    }

    @Test func otherEndingsAndNonPositiveAmountsHaveNoScenario() {
        for amount: Int64 in [0, -124, 123, 129, 133, 135, 1_000_000, 4_999] {
            #expect(SandboxScenario.forAmount(minor: amount) == nil, "\(amount)")
        }
    }

    @Test func readerSideScenariosLeaveTheIssuerAlone() {
        #expect(SandboxScenario.userCancelled.issuerResponseCode == nil)
        #expect(SandboxScenario.signatureRequested.issuerResponseCode == nil)
        #expect(SandboxScenario.timeout(seconds: 3).issuerResponseCode == nil)
        #expect(SandboxScenario.linkError(.corruptFrame).issuerResponseCode == nil)
        #expect(SandboxScenario.declined.issuerResponseCode == "05")
    }
}
