import Foundation
import TerminalAPI
import Testing

@testable import MPOSKit

/// What a Terminal API terminal remembers between requests stays bounded however long it runs.
@Suite(.timeLimit(.minutes(1)))
struct NexoSessionTests {
    private func response(_ id: String) -> PaymentResponse {
        let stamp = NexoTimestamp(Date(timeIntervalSince1970: 0))
        return PaymentResponse(
            response: Response(result: .success),
            saleData: SaleData(saleTransactionID: TransactionIdentification(transactionID: id, timeStamp: stamp)),
            poiData: POIData(poiTransactionID: TransactionIdentification(transactionID: id, timeStamp: stamp)))
    }

    /// The key a request's SaleID and ServiceID give never changes: a journal written by an
    /// earlier version must still find its attempts.
    @Test func theKeyOfARequestIsStable() {
        let key = NexoSession.key(for: .init(saleID: "SALE_ID_42", serviceID: "N1"))
        #expect(key.rawValue == "nexo-80544f9d921328cc540b8348bef9abb4dd440a01")
    }

    @Test func abortsCountOnlyAgainstThePaymentThatRuns() {
        var session = NexoSession()
        let first = NexoSession.Reference(saleID: "POS", serviceID: "A1")
        // No payment: an abort changes nothing.
        session.abortSent()
        #expect(session.running == nil && !session.aborted)
        session.started(first)
        #expect(!session.aborted)
        session.abortSent()
        // While the reader answers, the payment counts as aborted if it ends cancelled.
        #expect(session.aborted)
        session.abortAnswered(accepted: false, for: first)
        #expect(!session.aborted)
        session.abortSent()
        session.abortAnswered(accepted: true, for: first)
        #expect(session.aborted)
        session.ended()
        #expect(session.running == nil && !session.aborted)
        // A late answer to an abort of an earlier payment does not touch the next one.
        let second = NexoSession.Reference(saleID: "POS", serviceID: "A2")
        session.started(second)
        session.abortAnswered(accepted: true, for: first)
        #expect(!session.aborted && session.running?.reference == second)
    }

    @Test func onlyTheMostRecentAnswersAreKeptAndARepeatKeepsItsPlace() {
        var session = NexoSession()
        let kept = NexoSession.answersKept
        for index in 0..<(kept + 10) {
            session.remember(response("t\(index)"), for: .init(saleID: "POS", serviceID: "s\(index)"))
        }
        #expect(session.answered.count == kept)
        #expect(session.answered[.init(saleID: "POS", serviceID: "s9")] == nil)
        #expect(session.answered[.init(saleID: "POS", serviceID: "s10")] != nil)
        // Answering the same request again replaces its answer without a second place in line.
        session.remember(response("again"), for: .init(saleID: "POS", serviceID: "s10"))
        #expect(session.answered.count == kept)
        session.remember(response("next"), for: .init(saleID: "POS", serviceID: "new"))
        #expect(session.answered[.init(saleID: "POS", serviceID: "s10")] == nil)
        #expect(session.answered[.init(saleID: "POS", serviceID: "s11")] != nil)
    }
}
