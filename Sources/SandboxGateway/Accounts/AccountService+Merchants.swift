import Foundation
import GRDB
import GatewayAPI

extension AccountService {
    /// Adds a merchant named `name` (a default when `nil`) with a random user id.
    ///
    /// - Throws: 4000-range ``GatewayError`` when `name` is empty or longer than 100 characters.
    public func addMerchant(name: String?) throws -> SandboxCredentials {
        let name = name ?? "MPOSKit Sandbox Shop"
        guard (1...100).contains(name.count) else {
            throw GatewayError.invalid("The merchant name must be 1 to 100 characters.")
        }
        // The user id is random, so a team can add merchants without choosing unique names.
        let user = Secrets.newID(prefix: "sandbox-")
        return try createMerchant(name: name, user: user, email: "\(user)@example.com")
    }

    /// Whether `merchantID` is the sandbox's first merchant, whose API key may add merchants.
    public func isFirstMerchant(_ merchantID: String) throws -> Bool {
        let first = try store.writer.read { db in
            try String.fetchOne(db, sql: "SELECT id FROM merchant ORDER BY rowid LIMIT 1")
        }
        return first == merchantID
    }
}
