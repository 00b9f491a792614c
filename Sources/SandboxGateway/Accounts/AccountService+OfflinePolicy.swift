import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// The merchant's offline limits: its stored terms, or the defaults (24 hours, no amount
    /// or count limit) when none were set.
    public func offlinePolicy(merchantID: String) async throws -> OfflinePolicyTerms {
        let text = try await store.database.read { db in
            try db.fetchValue(String.self, sql: "SELECT terms FROM merchantOfflinePolicy WHERE merchantId = ?",
                arguments: [merchantID])
        }
        guard let text else { return OfflinePolicyTerms() }
        return try GatewayJSON.decoder.decode(OfflinePolicyTerms.self, from: Data(text.utf8))
    }

    /// Sets the merchant's offline limits; the next login returns them.
    ///
    /// - Throws: 4001 ``GatewayError`` for a negative limit or a window outside 1...720 hours.
    public func setOfflinePolicy(merchantID: String, _ terms: OfflinePolicyTerms) async throws {
        let amounts =
            [terms.maximumPaymentAmount].compactMap { $0 } + Array(terms.maximumTotalPerCurrency.values)
        guard amounts.allSatisfy({ $0 >= 0 }), (terms.maximumStoredPayments ?? 0) >= 0,
            (1...720).contains(terms.maximumHoursOffline)
        else {
            throw GatewayError.invalid("Offline limits must not be negative; the window is 1 to 720 hours.")
        }
        let text = String(decoding: try GatewayJSON.encoder.encode(terms), as: UTF8.self)
        try await store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO merchantOfflinePolicy (merchantId, terms) VALUES (?, ?)
                    ON CONFLICT(merchantId) DO UPDATE SET terms = excluded.terms
                    """,
                arguments: [merchantID, text])
        }
    }
}
