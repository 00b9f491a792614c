import Foundation
import GatewayAPI

/// Posts signed webhooks and retries failures with exponential backoff. Waits go through the
/// injected clock, so tests drive retries without real sleeping.
///
/// Before each attempt the URL's host is resolved and held to the destination policy
/// (``WebhookDestinations``); a refused destination is a failed attempt of class
/// `destination_refused` with no request sent, and is not retried. An attempt connects to the
/// address checked, follows no redirect (a 3xx is a failure of class `redirect`) and is signed
/// (``GatewayAPI/WebhookSignature``) with the time of ``init(transport:log:destinations:policy:clock:now:)``'s `now`.
public actor WebhookDispatcher {
    /// What to deliver, and where.
    public struct Delivery: Sendable {
        /// Unique per state change; sent as `MPOS-Event-Id` so receivers can drop repeats, and signed.
        public var eventID: String
        /// The merchant.
        public var merchantID: String
        /// The transaction the event is about.
        public var transactionID: String
        /// The JSON body.
        public var body: [UInt8]
        /// The target.
        public var url: URL
        /// The merchant's signing secret; no signature header when `nil`.
        public var secret: String?
        /// The number of the first attempt this dispatcher makes: 1 for a new event, more for
        /// one an earlier process already tried.
        public var attempt: Int

        /// Creates a delivery.
        public init(
            eventID: String, merchantID: String, transactionID: String, body: [UInt8], url: URL,
            secret: String?, attempt: Int = 1
        ) {
            self.attempt = max(1, attempt)
            self.eventID = eventID
            self.merchantID = merchantID
            self.transactionID = transactionID
            self.body = body
            self.url = url
            self.secret = secret
        }
    }

    private let transport: any WebhookTransport
    private let destinations: WebhookDestinations
    private let log: any WebhookDeliveryLog
    private let policy: WebhookRetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextTaskID = 0

    /// Creates a dispatcher.
    /// - Parameters:
    ///   - destinations: where deliveries may go; public addresses only by default.
    ///   - clock: paces the retries; a test clock makes them instant.
    ///   - now: the wall time used for signatures and the log.
    public init<C: Clock>(
        transport: any WebhookTransport = HTTPClientWebhookTransport(), log: any WebhookDeliveryLog,
        destinations: WebhookDestinations = WebhookDestinations(policy: .publicOnly, listeningOn: ""),
        policy: WebhookRetryPolicy = .standard, clock: C, now: @escaping @Sendable () -> Date = { Date() }
    ) where C.Duration == Duration {
        self.transport = transport
        self.destinations = destinations
        self.log = log
        self.policy = policy
        self.sleep = { duration in try await clock.sleep(for: duration) }
        self.now = now
    }

    /// Starts delivering in the background and returns at once.
    public func enqueue(_ delivery: Delivery) {
        let id = nextTaskID
        nextTaskID += 1
        // Unstructured: a delivery outlives the request that queued it; kept in `running` so shutdown can cancel it.
        running[id] = Task { [weak self] in
            await self?.run(delivery)
            await self?.finished(id)
        }
    }

    /// Waits until every delivery started so far has succeeded or given up.
    public func waitUntilIdle() async {
        while let task = running.values.first {
            await task.value
        }
    }

    /// Deliveries still in progress.
    public var pendingCount: Int { running.count }

    /// Stops every delivery in progress (a gateway shutting down); what they had not
    /// delivered stays in the outbox for the next pass.
    public func cancelAll() {
        for task in running.values { task.cancel() }
        running.removeAll()
    }

    private func finished(_ id: Int) { running[id] = nil }

    private func run(_ delivery: Delivery) async {
        var attempt = delivery.attempt
        while !Task.isCancelled {
            let at = now()
            let outcome = await self.attempt(delivery, number: attempt, at: at)
            let delay = outcome.isRetried ? policy.delay(afterAttempt: attempt) : nil
            await log.record(
                WebhookAttempt(
                    eventID: delivery.eventID, merchantID: delivery.merchantID,
                    transactionID: delivery.transactionID, url: delivery.url.absoluteString, attempt: attempt,
                    statusCode: outcome.statusCode, failure: outcome.failure, succeeded: outcome.succeeded,
                    attemptedAt: at, nextAttemptAt: delay.map { at.addingTimeInterval($0.timeInterval) }))
            guard let delay else { return }
            do { try await sleep(delay) } catch { return }
            attempt += 1
        }
    }

    /// One attempt at `at`: the destination check, then the signed post to the address it passed.
    private func attempt(_ delivery: Delivery, number: Int, at: Date) async -> WebhookAttemptOutcome {
        let address: WebhookAddress
        do throws(WebhookDestinationRefusal) {
            address = try await destinations.address(for: delivery.url)
        } catch {
            return WebhookAttemptOutcome(failure: error.deliveryFailure)
        }
        var headers = [
            "Content-Type": "application/json",
            WebhookSignature.eventIDHeaderName: delivery.eventID,
            WebhookSignature.attemptHeaderName: String(number),
        ]
        if let secret = delivery.secret {
            headers[WebhookSignature.headerName] = WebhookSignature.header(
                body: delivery.body, eventID: delivery.eventID, secret: secret, at: at)
        }
        do throws(WebhookTransportError) {
            let status = try await transport.post(
                url: delivery.url, connectingTo: address, body: delivery.body, headers: headers)
            return WebhookAttemptOutcome(status: status)
        } catch {
            return WebhookAttemptOutcome(failure: error.failure)
        }
    }
}
