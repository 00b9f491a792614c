import Foundation
import GatewayAPI
import MPOSCore

extension AccountService {
    /// Creates a merchant with one user and one API key; `password` defaults to a random
    /// one that meets the policy.
    ///
    /// - Throws: 4000 when the user id is taken, the password-policy error for a weak password.
    public func createMerchant(
        name: String, user: String, email: String, password: String? = nil,
        currency: Currency = .eur, country: String = "DE", categoryCode: String = "5999",
        address: String? = "Sandboxstraße 1, 10115 Berlin"
    ) async throws -> SandboxCredentials {
        let created = try await createMerchant(
            NewMerchant(
                name: name, user: user, email: email, currency: currency, country: country,
                categoryCode: categoryCode, address: address),
            password: password, onlyIfNoneExists: false)
        // Only the bootstrap may find merchants and create none.
        guard let created else { throw GatewayError.internalError("The merchant was not created.") }
        return created
    }

    /// On an empty database, creates the sandbox merchant and returns its credentials;
    /// `nil` when a merchant exists already.
    ///
    /// Several instances starting at once on one PostgreSQL database create it once: the
    /// check and the insert run in one transaction under a transaction-scoped advisory lock,
    /// so the first to commit bootstraps and the others find its merchant and print nothing.
    func bootstrapIfEmpty() async throws -> SandboxCredentials? {
        try await createMerchant(
            NewMerchant(
                name: "MPOSKit Sandbox Shop", user: "sandbox", email: "sandbox@example.com", currency: .eur,
                country: "DE", categoryCode: "5999", address: "Sandboxstraße 1, 10115 Berlin"),
            password: nil, onlyIfNoneExists: true)
    }

    /// What a new merchant is, apart from its secrets.
    private struct NewMerchant: Sendable {
        var name: String
        var user: String
        var email: String
        var currency: Currency
        var country: String
        var categoryCode: String
        var address: String?
    }

    /// Inserts the merchant, its user and API key in one write; with `onlyIfNoneExists`, does
    /// nothing (and returns `nil`) when any merchant exists.
    private func createMerchant(
        _ merchant: NewMerchant, password: String?, onlyIfNoneExists: Bool
    ) async throws -> SandboxCredentials? {
        let password = password ?? Secrets.newPassword()
        if let problem = Self.passwordPolicyProblem(password, user: merchant.user) {
            throw GatewayError(code: GatewayErrorCode.passwordPolicy, problem)
        }
        let merchantID = Secrets.newID(prefix: "m_")
        let apiKey = Secrets.newToken(prefix: "sk_sandbox_")
        let hash = try PasswordHasher.hash(password, rounds: configuration.passwordHashRounds)
        let now = self.now
        let created: Bool = try await store.database.write { db in
            if onlyIfNoneExists {
                try db.holdTransactionLock(named: "mposkit.bootstrap")
                let count = try db.fetchValue(Int.self, sql: "SELECT COUNT(*) FROM merchant") ?? 0
                if count > 0 { return false }
            }
            if try db.fetchOne(sql: "SELECT 1 FROM \"user\" WHERE id = ?", arguments: [merchant.user]) != nil {
                throw GatewayError.invalid("The user id is taken.")
            }
            try db.execute(
                sql: """
                    INSERT INTO merchant (id, name, currency, country, categoryCode, address, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    merchantID, merchant.name, merchant.currency.code, merchant.country, merchant.categoryCode,
                    merchant.address, now,
                ])
            try db.execute(
                sql: """
                    INSERT INTO "user" (id, merchantId, email, passwordHash, failedLogins, createdAt)
                    VALUES (?, ?, ?, ?, 0, ?)
                    """,
                arguments: [merchant.user, merchantID, merchant.email, hash, now])
            try db.execute(
                sql: "INSERT INTO apiKey (keyHash, merchantId, createdAt) VALUES (?, ?, ?)",
                arguments: [Secrets.sha256Hex(apiKey), merchantID, now])
            return true
        }
        guard created else { return nil }
        return SandboxCredentials(
            merchantID: merchantID, user: merchant.user, password: password, apiKey: apiKey, email: merchant.email)
    }
}
