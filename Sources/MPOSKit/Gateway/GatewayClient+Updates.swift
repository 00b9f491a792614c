import Foundation
import GatewayAPI
import MPOSCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The terminal-management routes: initialize, download an image by ranges, confirm an install.
extension GatewayClient {
    func initializeTerminal(_ request: TerminalInitializeRequest) async throws(MPOSError)
        -> TerminalInitializeResponse
    {
        try await query(GatewayRoutes.terminalInitialize, body: request)
    }

    func confirmInstall(_ confirmation: InstallConfirmation) async throws(MPOSError)
        -> TerminalInitializeResponse
    {
        try await query(GatewayRoutes.terminalInstalls, body: confirmation)
    }

    /// Bytes `offset..<offset+length` of an image (`Range`, answered 206); a gateway that
    /// ignores the range and answers 200 with the whole file is accepted from offset 0.
    func downloadPiece(imageID: String, offset: Int64, length: Int64) async throws(MPOSError) -> Data {
        let response: GatewayHTTPResponse
        do {
            response = try await resendingSafely { () async throws(GatewayTransportError) in
                try await authorized(
                    GatewayHTTPRequest(
                        GatewayRoutes.updateFile, parameters: ["id": imageID],
                        headers: ["Range": "bytes=\(offset)-\(offset + length - 1)"]))
            }
        } catch {
            throw MPOSError.gatewayUnreachable.withMessage("No answer from the gateway: \(error.reason).")
        }
        switch response.status {
        case 206: return response.body
        case 200 where offset == 0: return response.body
        default:
            // The body only words the message; the download fails either way.
            let body = try? GatewayJSON.decoder.decode(GatewayErrorBody.self, from: response.body)
            throw MPOSError.gatewayRefused.withMessage(
                "The gateway answered \(response.status) to the image download: \(body?.description ?? "no error body").")
        }
    }
}
