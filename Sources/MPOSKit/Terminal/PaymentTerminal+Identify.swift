import Foundation
import GatewayAPI
import MPOSCore

extension PaymentTerminal {
    /// Signs on with `credentials`, reads the merchant and the gateway's instance id, and
    /// ends the session: the identity a journal for these credentials is bound to, read
    /// before choosing which journal to open.
    ///
    /// - Throws: ``MPOSError/gatewayUnreachable`` when the gateway does not answer;
    ///   ``MPOSError/gatewayUnauthorized`` when it refuses the credentials.
    public static func identify(
        environment: URL, credentials: GatewayCredentials, transport: any GatewayTransport = URLSessionGatewayTransport()
    ) async throws(MPOSError) -> GatewayIdentity {
        let client = GatewayClient(
            baseURL: environment, credentials: credentials, transport: transport, retry: .standard)
        try await client.login(resending: false)
        let merchant: MerchantInfo
        do {
            if let known = await client.merchant { merchant = known } else { merchant = try await client.refreshMerchant() }
        } catch {
            await client.endSession()
            throw error
        }
        await client.endSession()
        return GatewayIdentity(
            gatewayInstanceID: merchant.gatewayInstanceID, merchantID: merchant.id, gatewayURL: client.baseURL.absoluteString)
    }
}
