import Foundation

extension RunningGateway {
    /// Claims the webhook events due now in the outbox and starts delivering them, as the
    /// gateway's background pass does; for tools and tests that move the injected clocks.
    ///
    /// - Returns: how many events this call claimed (none another instance holds).
    /// - Throws: database errors.
    @discardableResult
    public func deliverDueWebhooks() async throws -> Int {
        try await environment.webhookOutbox.deliverDue()
    }

    /// Delivers the webhook events due now and waits until every delivery this instance
    /// has started has succeeded or given up (retries wait on
    /// ``SandboxGatewayConfiguration/webhookClock``).
    ///
    /// - Throws: database errors from the claim.
    public func waitUntilWebhooksIdle() async throws {
        try await environment.webhookOutbox.waitUntilIdle()
    }
}
