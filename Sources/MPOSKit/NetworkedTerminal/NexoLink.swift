import Foundation
import MPOSCore
import TerminalAPI

/// One networked terminal's Terminal API over HTTP: builds the requests, posts them (sealed
/// under the key, when there is one) and reads the answers, which must then open under it.
struct NexoLink: Sendable {
    /// What came back for one request.
    enum Answer: Sendable {
        /// A response that decoded (and, with a key, decrypted and authenticated).
        case response(SaleToPOIResponse)
        /// No usable answer: no HTTP answer, another status than 200, bytes that are no
        /// response, a `Reject` notification. The request may or may not have been performed.
        case lost(String)
        /// With a key: an answer in clear, or one that does not decrypt and authenticate. Not
        /// to be believed, and asking again the same way gets the same.
        case unauthenticated(String)
    }

    let terminal: NetworkedTerminal
    let crypto: NexoCrypto?

    init(_ terminal: NetworkedTerminal) {
        self.terminal = terminal
        crypto = terminal.key.map { NexoCrypto(key: $0) }
    }

    /// The base URL without a trailing slash, so that the path `/nexo` joins it once.
    private var baseURL: URL {
        var text = terminal.url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? terminal.url
    }

    /// A service request's header.
    func header(_ category: MessageCategory, serviceID: String) -> MessageHeader {
        MessageHeader(
            protocolVersion: "3.0", messageClass: .service, messageCategory: category, messageType: .request,
            serviceID: serviceID, saleID: terminal.saleID, poiID: terminal.poiID)
    }

    /// A new ServiceID: ten letters and digits (nexo's limit), random, so that a SaleID's
    /// requests do not repeat one.
    static func newServiceID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Why a post got no answer.
    struct PostFailure: Error {
        var reason: String
    }

    /// Posts `request` and reads the answer.
    func send(_ request: SaleToPOIRequest) async -> Answer {
        let body: Data
        switch await post(request) {
        case .failure(let failure): return .lost(failure.reason)
        case .success(let data): body = data
        }
        return read(body, answering: request.messageHeader)
    }

    /// Posts `request`; the answer's bytes on HTTP 200.
    func post(_ request: SaleToPOIRequest) async -> Result<Data, PostFailure> {
        let bytes = crypto.map { NexoCoder.encode($0.encrypt(request)) } ?? NexoCoder.encode(request)
        let http = GatewayHTTPRequest(
            method: NexoEndpoint.method, path: NexoEndpoint.path,
            headers: ["Content-Type": NexoEndpoint.contentType],
            body: bytes)
        do {
            let answer = try await terminal.transport.send(http, to: baseURL)
            guard answer.status == 200 else {
                return .failure(PostFailure(reason: "the terminal answered HTTP \(answer.status)"))
            }
            return .success(answer.body)
        } catch {
            return .failure(PostFailure(reason: "the terminal could not be reached (\(error.reason))"))
        }
    }

    /// The answer in `data` to a request with `header`.
    func read(_ data: Data, answering header: MessageHeader) -> Answer {
        let response: SaleToPOIResponse
        do {
            response = try NexoCoder.decodeResponse(data)
        } catch {
            return .lost("the terminal's answer is not a Terminal API response (\(error.description))")
        }
        guard let crypto else {
            return matches(response.messageHeader, header) ? .response(response) : .lost(Self.mismatch)
        }
        guard response.nexoBlob != nil else {
            let said = [
                response.paymentResponse?.response, response.reversalResponse?.response,
                response.transactionStatusResponse?.response,
            ].compactMap { $0 }.first
            let text = said.map {
                " (\($0.errorCondition?.rawValue ?? $0.result.rawValue): \($0.additionalResponse?.message ?? ""))"
            }
            return .unauthenticated("the terminal answered in clear, not under the key\(text ?? "")")
        }
        do {
            let opened = try crypto.decrypt(response)
            return matches(opened.messageHeader, header) ? .response(opened) : .lost(Self.mismatch)
        } catch {
            return .unauthenticated(
                "the terminal's answer did not decrypt and authenticate (\(error.description))")
        }
    }

    private static let mismatch = "the terminal's answer is for another request"

    /// Whether a response header answers the request header (same service and category).
    private func matches(_ response: MessageHeader, _ request: MessageHeader) -> Bool {
        response.serviceID == request.serviceID && response.messageCategory == request.messageCategory
            && response.saleID == request.saleID
    }
}
