import Foundation

/// The terminal's gateway transport with the developer log around it: a pass-through while
/// the log is off.
struct LoggingGatewayTransport: GatewayTransport {
    let base: any GatewayTransport
    let log: DeveloperLog

    func send(_ request: GatewayHTTPRequest, to baseURL: URL) async throws(GatewayTransportError)
        -> GatewayHTTPResponse
    {
        guard let logger = log.current else { return try await base.send(request, to: baseURL) }
        log.request(request, on: logger)
        do {
            let response = try await base.send(request, to: baseURL)
            log.response(.success(response), to: request, on: logger)
            return response
        } catch {
            log.response(.failure(error), to: request, on: logger)
            throw error
        }
    }
}
