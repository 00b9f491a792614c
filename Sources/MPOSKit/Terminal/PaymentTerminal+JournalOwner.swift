import Foundation
import GatewayAPI
import MPOSCore

// A journal belongs to the gateway and merchant of its first login; a terminal pointed at
// another one is refused before recovery asks that gateway about attempts it never saw.
extension PaymentTerminal {
    /// Binds the journal to the logged-in gateway and merchant (a journal without an owner
    /// adopts them). On a mismatch the gateway session is ended, so that no payment, lookup
    /// or reversal can run, and the refusal is kept for the calls that follow.
    func bindJournal() async throws(MPOSError) {
        let merchant: MerchantInfo
        if let known = await client.merchant { merchant = known } else { merchant = try await client.refreshMerchant() }
        let owner = JournalOwner(
            gateway: client.baseURL.absoluteString, merchantID: merchant.id, gatewayInstanceID: merchant.gatewayInstanceID)
        do {
            try await recovery.bind(to: owner)
            await offline.setSession(.gateway)
        } catch {
            if error.code == MPOSError.Code.journalOwnedElsewhere {
                await offline.setSession(.journalRefused(error))
                await client.endSession()
            }
            throw error
        }
    }

    /// Throws the journal's refusal of this terminal's gateway or merchant, if any, else
    /// ``MPOSError/notLoggedIn`` when there is no gateway session. Offline-only, only a sale
    /// allowed offline (`offlineSale`) goes on; anything else needs the gateway.
    func requireSession(offlineSale: Bool = false) async throws(MPOSError) {
        if let journalRefusal = await recovery.refusal { throw journalRefusal }
        if state.isOfflineOnly {
            if offlineSale { return }
            throw MPOSError.onlyOfflineSales
        }
        guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
    }
}
