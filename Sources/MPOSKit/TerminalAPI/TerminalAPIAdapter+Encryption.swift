import Foundation
import MPOSCore
import TerminalAPI

// Terminal API requests under Adyen's local encryption, as a terminal on the LAN takes them
// when a key is configured: encrypted in, encrypted out, clear messages refused.
extension TerminalAPIAdapter {
    /// What ``PaymentTerminal/perform(terminalAPIRequest:crypto:)`` documents: decrypts, runs
    /// the request through `payments`, encrypts the answer.
    func perform(terminalAPIRequest data: Data, crypto: NexoCrypto, payments: some TerminalAPIPayments)
        async throws(MPOSError) -> Data
    {
        let sealed: SaleToPOIRequest
        do { sealed = try NexoCoder.decodeRequest(data) } catch { throw MPOSError.terminalAPI(error) }
        let header = sealed.messageHeader
        guard sealed.nexoBlob != nil else {
            return NexoReplies.failure(
                header, condition: .notAllowed,
                message: NexoError(
                    .encryptionExpected, condition: .notAllowed, field: "SaleToPOIRequest.NexoBlob",
                    message: "this terminal takes encrypted messages only"
                ).description)
        }
        let request: SaleToPOIRequest
        do {
            request = try crypto.decrypt(sealed)
        } catch {
            let secret = error.code == .hmacMismatch || error.code == .badPadding
            return NexoReplies.failure(
                header, condition: .notAllowed,
                message: secret ? "the message could not be decrypted and authenticated" : error.description)
        }
        let answer = try await perform(terminalAPIRequest: NexoCoder.encode(request), payments: payments)
        if answer.isEmpty { return answer }
        // Our own answer: a response, else an event notification, each tried in turn.
        if let response = try? NexoCoder.decodeResponse(answer) {
            return NexoCoder.encode(crypto.encrypt(response))
        }
        // A Reject event notification is a request-side message.
        if let event = try? NexoCoder.decodeRequest(answer) { return NexoCoder.encode(crypto.encrypt(event)) }
        return answer
    }
}

extension NexoOutcome {
    /// The `Reject` event notification a terminal answers bytes with that it cannot read as a
    /// request (Adyen's terminals answer `Input is not a JSONObject` so).
    public static func reject(reason: String) -> Data { NexoReplies.reject(nil, reason: reason) }
}
