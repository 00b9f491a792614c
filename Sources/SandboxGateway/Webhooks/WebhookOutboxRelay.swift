import Foundation
import Synchronization

/// One gateway instance's delivery of the webhook outbox: a pass claims the due events
/// (``WebhookOutbox/claim(_:owner:at:lease:)``) and hands them to the dispatcher, which posts,
/// retries on the injected clock and records each attempt with the event's new state.
///
/// A pass runs at start (for events a stopped process left), after every commit that stored
/// events (``kick()``), and every ``SandboxGatewayConfiguration/webhookOutboxInterval`` for
/// events other instances left or gave back.
final class WebhookOutboxRelay: Sendable {
    /// Posts, retries and logs.
    let dispatcher: WebhookDispatcher
    /// This process's name in `claimed_by`: several instances share one database's id.
    let owner: String
    private let database: any GatewayDatabase
    private let lease: TimeInterval
    private let now: @Sendable () -> Date
    private let kicks: AsyncStream<Void>
    private let kicker: AsyncStream<Void>.Continuation
    private let passes = Mutex<[Task<Void, Never>]>([])
    /// Claims in progress, whose events may not have reached the dispatcher yet.
    private let claiming = Mutex(0)

    /// A relay over `database`, claiming for `lease` seconds on `now`'s time, posting where
    /// `destinations` allows and retrying on `clock`.
    init(
        database: any GatewayDatabase, instanceID: String, lease: TimeInterval,
        transport: any WebhookTransport = HTTPClientWebhookTransport(), destinations: WebhookDestinations,
        policy: WebhookRetryPolicy = .standard, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date
    ) {
        var generator = SystemRandomNumberGenerator()
        let owner = instanceID + "/" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16)
        self.owner = owner
        self.database = database
        self.lease = lease
        self.now = now
        self.dispatcher = WebhookDispatcher(
            transport: transport, log: WebhookOutboxDeliveryLog(database: database, owner: owner, lease: lease),
            destinations: destinations, policy: policy, clock: clock, now: now)
        (kicks, kicker) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a pass soon: events were just committed. Kicks while a pass runs fold into one.
    func kick() { kicker.yield(()) }

    /// Claims the events due now and starts delivering them; returns how many it claimed.
    ///
    /// - Throws: database errors from the claim.
    @discardableResult
    func deliverDue() async throws -> Int {
        let owner = owner
        let lease = lease
        let time = now()
        claiming.withLock { $0 += 1 }
        defer { claiming.withLock { $0 -= 1 } }
        var claimed = 0
        while true {
            guard try await database.read({ db in try WebhookOutbox.anyDue(db, at: time) }) else { return claimed }
            let events = try await database.write { db in
                try WebhookOutbox.claim(db, owner: owner, at: time, lease: lease)
            }
            for event in events {
                // An unparsable URL cannot have been stored (it was checked on the way in).
                guard let url = URL(string: event.url) else { continue }
                await dispatcher.enqueue(
                    .init(
                        eventID: event.eventID, merchantID: event.merchantID, transactionID: event.transactionID,
                        body: event.body, url: url, secret: event.secret, attempt: event.attempts + 1))
            }
            claimed += events.count
            if events.count < WebhookOutbox.claimBatch { return claimed }
        }
    }

    /// Delivers what is due now, then waits until every delivery this instance started has
    /// succeeded or given up.
    func waitUntilIdle() async throws {
        try await deliverDue()
        while true {
            await dispatcher.waitUntilIdle()
            if claiming.withLock({ $0 }) == 0, await dispatcher.pendingCount == 0 { return }
            await Task.yield()
        }
    }

    /// Starts the passes: one now, one per ``kick()``, and one every `interval` on `clock`
    /// when an interval is given.
    func start(every interval: Duration?, clock: any Clock<Duration>) {
        let kicks = kicks
        // Unstructured: the passes live as long as the server; ``stop()`` cancels them.
        var tasks = [
            Task { [self] in
                // A failed pass leaves its events due; the next pass (timer or kick) delivers them.
                _ = try? await deliverDue()
                for await _ in kicks { _ = try? await deliverDue() }
            }
        ]
        if let interval {
            let kicker = kicker
            tasks.append(Task { await Self.tick(kicker, every: interval, clock: clock) })
        }
        passes.withLock { $0 += tasks }
    }

    /// Kicks every `interval` on `clock` until cancelled.
    private static func tick<C: Clock>(
        _ kicker: AsyncStream<Void>.Continuation, every interval: Duration, clock: C
    ) async where C.Duration == Duration {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            kicker.yield(())
        }
    }

    /// Stops the passes and the deliveries in progress; their events stay in the outbox.
    func stop() async {
        let tasks = passes.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in tasks { task.cancel() }
        await dispatcher.cancelAll()
    }
}
