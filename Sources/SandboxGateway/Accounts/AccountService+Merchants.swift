import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// Adds a merchant named `name` (a default when `nil`) with a random user id.
    ///
    /// - Throws: 4000-range ``GatewayError`` when `name` is empty or longer than 100 characters.
    public func addMerchant(name: String?) async throws -> SandboxCredentials {
        let name = name ?? "MPOSKit Sandbox Shop"
        // Counted as the OpenAPI document's maxLength counts: Unicode scalars, not grapheme
        // clusters (a name of 100 letters each with combining marks is longer than 100).
        guard (1...100).contains(name.unicodeScalars.count) else {
            throw GatewayError.invalid("The merchant name must be 1 to 100 characters.")
        }
        // The user id is random, so a team can add merchants without choosing unique names.
        let user = Secrets.newID(prefix: "sandbox-")
        return try await createMerchant(name: name, user: user, email: "\(user)@example.com")
    }

    /// Whether `merchantID` is the sandbox's first merchant, whose API key may add merchants.
    public func isFirstMerchant(_ merchantID: String) async throws -> Bool {
        let first = try await store.database.read { db in
            try db.fetchValue(String.self, sql: "SELECT id FROM merchant ORDER BY createdAt, \(db.dialect.rowOrder) LIMIT 1")
        }
        return first == merchantID
    }
}
