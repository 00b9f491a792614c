import Foundation
import MPOSCore
import TerminalAPI
import Testing

@testable import MPOSKit

/// Reading a terminal's nexo answers as MPOSKit results (the reverse of `NexoOutcome`), and
/// the settlement rules of a lost answer as a pure machine.
@Suite(.timeLimit(.minutes(1)))
struct NexoReverseMappingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("TerminalAPITests/Fixtures")

    @Test func adyensApprovedPaymentResponseReadsAsAnApprovedResult() throws {
        let data = try Data(
            contentsOf: Self.fixtures.appendingPathComponent(
                "adyen-java-api-library/payment-sync-success.json"))
        let response = try #require(try NexoCoder.decodeResponse(data).paymentResponse)
        let key = try #require(IdempotencyKey(rawValue: "nexo-test"))
        let result = NexoOutcome.result(
            of: response, kind: .sale, requestedAmount: 100, currency: .eur, idempotencyKey: key)
        #expect(result.status == .approved && result.approvedAmount == 100)
        #expect(result.transactionID?.rawValue == "4r7i001556529591000.8515565295894301")
        #expect(
            result.maskedPAN == "411111 **** 1111" && result.scheme == "mc"
                && result.entryMode == .contactless)
        #expect(result.authorizationCode == "123456")
        #expect(result.emv?.aid == "A0000000041010" && result.emv?.applicationLabel == "MCC 351 v1 2")
        #expect(result.error == nil && result.refusalReason == nil)
    }

    @Test func aWholeCardNumberFromATerminalIsMaskedBeforeItIsKept() {
        #expect(NexoOutcome.masked("4111111111111111") == "411111******1111")
        #expect(NexoOutcome.masked("4111 1111 1111 1111") == "4111 11** **** 1111")
        #expect(NexoOutcome.masked("411111******1111") == "411111******1111")
        #expect(NexoOutcome.masked("411111 **** 1111") == "411111 **** 1111")
    }

    @Test func everySandboxRefusalReadsBackAsItsResponseCode() {
        let key = IdempotencyKey(rawValue: "nexo-test")!
        for (code, refusal) in NexoOutcome.refusals where refusal.message != "REFUSED" {
            let declined = PaymentResult(
                status: .declined, kind: .sale, requestedAmount: 124, approvedAmount: 0, currency: .eur,
                idempotencyKey: key, responseCode: code)
            let answer = NexoOutcome.response(for: declined)
            #expect(NexoOutcome.status(of: answer) == .declined, "\(code)")
            #expect(NexoOutcome.responseCode(of: answer, status: .declined) == code, "\(code)")
        }
        let aborted = Response(result: .failure, errorCondition: .aborted)
        #expect(NexoOutcome.status(of: aborted) == .cancelled)
        let busy = Response(result: .failure, errorCondition: .busy)
        #expect(NexoOutcome.status(of: busy) == .failed)
        #expect(NexoOutcome.error(for: busy).code == MPOSError.Code.terminalBusy)
        #expect(NexoOutcome.error(for: Response(result: .failure, errorCondition: .notAllowed)).code == 3301)
    }

    @Test func pollingPausesLongerEachTimeUntilTheDeadline() {
        var polling = StatusPolling(deadline: .seconds(10))
        #expect(polling.start() == .ask(after: .zero))
        #expect(polling.handle(.inProgress) == .ask(after: .milliseconds(500)))
        #expect(polling.handle(.unknown("reset")) == .ask(after: .seconds(1)))
        #expect(polling.handle(.inProgress) == .ask(after: .seconds(2)))
        #expect(polling.handle(.inProgress) == .ask(after: .seconds(4)))
        // 7.5 s waited: another 8 s would pass the deadline.
        #expect(polling.handle(.unknown("reset")) == .giveUp("reset"))
        var settled = StatusPolling(deadline: .seconds(10))
        #expect(settled.handle(.notFound) == .notFound)
        #expect(settled.handle(.unauthenticated("clear")) == .giveUp("clear"))
        var once = StatusPolling(deadline: .zero)
        #expect(once.handle(.inProgress) == .giveUp("the terminal still reports the payment in progress"))
    }
}
