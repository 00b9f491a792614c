import Foundation
import GatewayAPI
import MPOSCore

/// Reading the gateway's answers: encoding a request's body, the error a refusal is, and
/// what a payment request's answer says.
extension GatewayClient {
    func encode(_ value: some Encodable) throws(MPOSError) -> Data {
        do { return try GatewayJSON.encoder.encode(value) } catch {
            throw MPOSError.invalidArgument.withMessage("The request could not be encoded.")
        }
    }

    func refusal(_ response: GatewayHTTPResponse, unauthorized: Bool) -> MPOSError {
        // The body only words the message; the status decides the error.
        let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body)
        if response.status == 401 || (unauthorized && response.status == 403) {
            return MPOSError.gatewayUnauthorized.withMessage(
                "The gateway refused the credentials (\(body?.code ?? response.status)).")
        }
        return MPOSError.gatewayRefused.withMessage(
            "The gateway answered \(response.status): \(body?.description ?? "no error body").")
    }

    /// The status a 2xx answer whose transaction cannot be read is reported with: 502, an
    /// invalid answer, so that every caller treats it as a server error (the outcome is
    /// unknown) and never as a refusal that charged nothing.
    static let unreadableAnswerStatus = 502

    static func answer(_ response: GatewayHTTPResponse) -> GatewayAnswer {
        if (200..<300).contains(response.status) {
            do {
                return .transaction(try GatewayJSON.decoder.decode(Transaction.self, from: response.body))
            } catch {
                // The gateway did the request; what it did is unknown until a lookup reads it.
                return .refused(
                    status: unreadableAnswerStatus,
                    GatewayErrorBody(
                        code: unreadableAnswerStatus * 10,
                        message:
                            "The gateway answered \(response.status) with a transaction that could not be read."))
            }
        }
        // An error body that cannot be read still refuses: its status says what happened.
        let body =
            (try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body))
            ?? GatewayErrorBody(
                code: response.status * 10, message: "The gateway answered \(response.status).")
        return .refused(status: response.status, body)
    }
}
