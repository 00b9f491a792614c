import AsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When to retry a failed webhook delivery: exponential backoff with a cap.
public struct WebhookRetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// The wait after the first failure.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// Six attempts, waiting 1 s, 2 s, 4 s, 8 s and 16 s between them.
    public static let standard = WebhookRetryPolicy(
        maximumAttempts: 6, initialDelay: .seconds(1), maximumDelay: .seconds(300))

    /// Creates a policy.
    public init(maximumAttempts: Int, initialDelay: Duration, maximumDelay: Duration) {
        precondition(maximumAttempts >= 1)
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after failed attempt number `attempt` (1-based), or `nil` when none follows:
    /// `initialDelay × 2^(attempt−1)`, at most `maximumDelay`.
    public func delay(afterAttempt attempt: Int) -> Duration? {
        guard attempt >= 1, attempt < maximumAttempts else { return nil }
        var delay = initialDelay
        for _ in 1..<attempt {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}

/// Sends one webhook request; the seam between the dispatcher and the network.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` to `url` with `headers`; returns the HTTP status, or throws when no answer came.
    func post(url: URL, body: [UInt8], headers: [String: String]) async throws -> Int
}

/// The transport over AsyncHTTPClient's shared client: the gateway's default.
///
/// Cancelling a delivery (a gateway shutting down) cancels its request; on Linux,
/// `URLSession` could crash the process when a cancel raced the task's end.
public struct HTTPClientWebhookTransport: WebhookTransport {
    /// The per-request timeout.
    public var timeout: TimeInterval

    /// Creates a transport.
    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    /// POSTs with `HTTPClient.shared` and reads the answer (at most 1 MiB of it).
    public func post(url: URL, body: [UInt8], headers: [String: String]) async throws -> Int {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1_000)))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }
}

/// The transport over Foundation's `URLSession`.
public struct URLSessionWebhookTransport: WebhookTransport {
    /// The per-request timeout.
    public var timeout: TimeInterval

    /// Creates a transport.
    public init(timeout: TimeInterval = 10) { self.timeout = timeout }

    /// POSTs with `URLSession.shared`.
    public func post(url: URL, body: [UInt8], headers: [String: String]) async throws -> Int {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

/// One delivery attempt, as the delivery log records it.
public struct WebhookAttempt: Sendable, Hashable, Codable {
    /// The event delivered.
    public var eventID: String
    /// The merchant whose webhook this is.
    public var merchantID: String
    /// The transaction the event is about.
    public var transactionID: String
    /// The target URL.
    public var url: String
    /// 1 for the first attempt.
    public var attempt: Int
    /// The HTTP status, when an answer came.
    public var statusCode: Int?
    /// Why the attempt failed without an answer.
    public var error: String?
    /// Whether the receiver accepted it (2xx).
    public var succeeded: Bool
    /// When the attempt was made.
    public var attemptedAt: Date
    /// When the next attempt is due, if one follows.
    public var nextAttemptAt: Date?
}

/// Where the dispatcher records attempts.
public protocol WebhookDeliveryLog: Sendable {
    /// Stores one attempt.
    func record(_ attempt: WebhookAttempt) async
}

/// Posts signed webhooks and retries failures with exponential backoff. Waits go through the
/// injected clock, so tests drive retries without real sleeping.
public actor WebhookDispatcher {
    /// What to deliver, and where.
    public struct Delivery: Sendable {
        /// Unique per state change; sent as `X-Event-Id` so receivers can drop repeats.
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
    private let log: any WebhookDeliveryLog
    private let policy: WebhookRetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextTaskID = 0

    /// Creates a dispatcher.
    /// - Parameters:
    ///   - clock: paces the retries; a test clock makes them instant.
    ///   - now: the wall time used for signatures and the log.
    public init<C: Clock>(
        transport: any WebhookTransport = HTTPClientWebhookTransport(), log: any WebhookDeliveryLog,
        policy: WebhookRetryPolicy = .standard, clock: C, now: @escaping @Sendable () -> Date = { Date() }
    ) where C.Duration == Duration {
        self.transport = transport
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
        let body = delivery.body
        var attempt = delivery.attempt
        while !Task.isCancelled {
            let at = now()
            var headers = [
                "Content-Type": "application/json",
                "X-Event-Id": delivery.eventID,
                "X-Attempt": String(attempt),
            ]
            if let secret = delivery.secret {
                headers[WebhookSignature.headerName] = WebhookSignature.header(body: body, secret: secret)
            }
            var status: Int?
            var failure: String?
            do { status = try await transport.post(url: delivery.url, body: body, headers: headers) } catch {
                failure = String(describing: error).prefix(300).description
            }
            let succeeded = status.map { (200..<300).contains($0) } ?? false
            let delay = succeeded ? nil : policy.delay(afterAttempt: attempt)
            await log.record(
                WebhookAttempt(
                    eventID: delivery.eventID, merchantID: delivery.merchantID,
                    transactionID: delivery.transactionID, url: delivery.url.absoluteString, attempt: attempt,
                    statusCode: status, error: failure, succeeded: succeeded, attemptedAt: at,
                    nextAttemptAt: delay.map { at.addingTimeInterval($0.timeInterval) }))
            guard let delay else { return }
            do { try await sleep(delay) } catch { return }
            attempt += 1
        }
    }
}

extension Duration {
    /// The duration in seconds as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
