import Foundation

extension RunningGateway {
    /// Decides now the refunds accepted as received that have waited
    /// ``SandboxGatewayConfiguration/asynchronousRefundDelay``, as the gateway's background pass
    /// does, and posts their outcomes to the merchants' webhooks; for tools and tests that move
    /// the injected clock.
    ///
    /// - Returns: how many refunds this call settled (none that another pass settled first).
    @discardableResult
    public func settlePendingRefunds() async throws -> Int {
        try await refunds.settleDue().count
    }
}

extension RunningGateway {
    /// Turns a merchant's asynchronous refunds on or off, as
    /// `PUT /v1/webhooks/config` with `asynchronousRefunds` does: with them on, refunds are
    /// answered at once as received (status `pending`) and decided later.
    ///
    /// - Throws: database errors.
    public func setAsynchronousRefunds(merchantID: String, _ enabled: Bool) async throws {
        let now = environment.configuration.now()
        try await environment.store.database.write { db in
            try AsynchronousRefunds.set(db, merchant: merchantID, asynchronous: enabled, now: now)
        }
    }
}

extension PendingRefundSettler {
    /// The settler of a running gateway, over its own payment service and webhook notifier.
    init(environment: GatewayEnvironment) {
        self.init(
            payments: PaymentDomain(environment: environment).payments,
            delay: environment.configuration.asynchronousRefundDelay)
    }

    /// Starts the background pass the configuration asks for, if any.
    func start(_ configuration: SandboxGatewayConfiguration) -> Task<Void, Never>? {
        guard let interval = configuration.refundSettlementInterval else { return nil }
        let clock = configuration.refundSettlementClock
        // Unstructured: the pass lives as long as the server task, which cancels it on stop.
        return Task { await self.run(every: interval, clock: clock) }
    }
}
