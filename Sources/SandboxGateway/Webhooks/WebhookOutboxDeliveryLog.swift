import Foundation

/// The delivery log of outbox events: each attempt is stored in `payment_webhook_delivery`
/// and settles its event in the outbox (delivered, due again, given up) in the same write.
struct WebhookOutboxDeliveryLog: WebhookDeliveryLog {
    /// The ledger database.
    let database: any GatewayDatabase
    /// The claiming instance; an event another instance has taken over is left to it.
    let owner: String
    /// How long past its next attempt this instance keeps an event it retries itself.
    let lease: TimeInterval

    /// Stores the attempt and its event's state; a failure to store is dropped rather than
    /// failing the delivery, and the claim then runs out and the event is tried again.
    func record(_ attempt: WebhookAttempt) async {
        let owner = owner
        let lease = lease
        // A log row that cannot be written is dropped; the event's own state in the outbox decides redelivery.
        try? await database.write { db in
            try attempt.insert(db)
            try WebhookOutbox.settle(db, attempt, owner: owner, lease: lease)
        }
    }
}
