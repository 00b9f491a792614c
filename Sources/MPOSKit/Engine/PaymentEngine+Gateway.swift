import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

// The engine's gateway side: what an answer to the authorisation means, the
// lookup-then-resend rule's steps, and telling the card when the gateway cannot be asked.
extension PaymentEngine {
    mutating func hostAnswered(_ answer: GatewayAnswer) -> [Effect] {
        phase = .completing
        switch answer {
        case .transaction(let transaction):
            host = transaction
            entry.gatewayTransactionID = transaction.id
            let approved = transaction.status.isApproval
            if approved { entry.state = .approved }
            var effects: [Effect] = [.journal(entry)]
            if readerGone {
                if approved { return effects + startReversal(transaction.id, reason: .terminalError) }
                return effects + finish(transaction.status == .pending ? .pending : .declined, error: nil)
            }
            // Issuer data that is not hex goes to the card as none: the card then decides, and
            // a card that declines what the host approved has it reversed (`cardFinished`).
            let issuerAuthentication =
                transaction.issuerAuthenticationData.flatMap { try? Hex.decode($0) } ?? []
            // Host data that is not hex is not sent to the card; the card then judges without it.
            let issuerScripts = transaction.issuerScripts.flatMap { try? Hex.decode($0) } ?? []
            effects.append(
                .sendToReader(
                    .hostResponse(
                        HostResponse(
                            transactionID: readerTransactionID, approved: approved,
                            authorizationResponseCode: transaction.responseCode ?? (approved ? "00" : "05"),
                            authorizationCode: transaction.authorizationCode,
                            issuerAuthenticationData: issuerAuthentication, issuerScripts: issuerScripts))))
            return effects
        case .refused where !GatewayDelivery.isFinal(answer):
            // "Nothing was charged unless an attempt lookup says otherwise": ask.
            return follow(delivery.handle(.unanswered))
        case .refused(_, let body):
            // The gateway answered: nothing was charged.
            hostRefusal = body
            entry.state = .finished
            entry.outcome = .failed
            if readerGone { return finish(.failed, error: refusalError(body)) }
            return [
                .sendToReader(
                    .hostResponse(
                        HostResponse(
                            transactionID: readerTransactionID, approved: false,
                            authorizationResponseCode: "05",
                            authorizationCode: nil, issuerAuthenticationData: [], issuerScripts: [])))
            ]
        }
    }

    /// Performs the lookup-then-resend rule's next step for the authorisation.
    mutating func follow(_ step: GatewayDelivery.Step) -> [Effect] {
        switch step {
        case .send:
            guard let request else { return unableToGoOnline(finished: true) }
            phase = .authorizing
            return [.authorize(request, key)]
        case .lookUp(let pause):
            phase = .recovering
            recovered = true
            return [.lookup(key, delay: pause)]
        case .settled(let answer):
            return hostAnswered(answer)
        case .neverArrived:
            // The gateway never saw it: nothing was charged.
            return unableToGoOnline(finished: true)
        case .unknown(_, let hopeless):
            // Still unknown: the journal keeps it; the next start (or, when the credentials
            // were refused, the next login) finishes it.
            return unableToGoOnline(
                finished: false, because: hopeless ? .gatewayUnauthorized : .gatewayUnreachable)
        }
    }

    /// The gateway could not be asked: the card is told so (it declines); `finished` says
    /// whether the gateway surely never saw the attempt.
    mutating func unableToGoOnline(finished: Bool, because reason: MPOSError = .gatewayUnreachable)
        -> [Effect]
    {
        phase = .completing
        if finished { entry.state = .finished } else { outcomeUnknown = true }
        entry.outcome = .failed
        var effects: [Effect] = [.journal(entry)]
        if readerGone {
            effects += finish(.failed, error: reason)
            return effects
        }
        hostRefusal = GatewayErrorBody(code: reason.code, message: reason.message)
        var responseCode = ""
        if parameters.offlineAllowed {
            if let refusal = offlineRefusalNow() {
                onlineRequired = refusal
            } else {
                // EMV's "unable to go online": the card decides by its default action.
                offline = true
                responseCode = Self.unableToGoOnline
            }
        }
        effects.append(
            .sendToReader(
                .hostResponse(
                    HostResponse(
                        transactionID: readerTransactionID, approved: false,
                        authorizationResponseCode: responseCode,
                        authorizationCode: nil, issuerAuthenticationData: [], issuerScripts: []))))
        return effects
    }
}
