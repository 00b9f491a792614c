import EMV
import Foundation
import GatewayAPI
import MPOSCore

// Forwarding the stored sales: a sliding window of concurrent forwards, marks synced a window's
// worth at a time, and the background forwarder that waits for the gateway.
extension OfflinePayments {
    /// How many forwards run side by side.
    static let forwardWindow = 32

    /// Forwards every stored sale not forwarded yet, each exactly once, up to ``forwardWindow``
    /// at a time, started in stored order (``OfflineForwardSchedule`` keeps one card's sales in
    /// stored order): a new one starts as soon as one is answered. Each sale goes under the key
    /// fixed when it was stored; marks are appended and synced a window's worth at a time (and
    /// whenever nothing is in flight). A crash before a sync forwards those sales again under
    /// the same keys, which the gateway answers from the first time.
    ///
    /// - Parameter asOperation: the app asked for it: the forward holds the terminal as any
    ///   operation does (``MPOSError/terminalBusy`` while another runs, and none starts meanwhile).
    ///   The background forward does not: it waits for a free terminal instead.
    /// - Returns: the outcomes reached now.
    /// - Throws: ``MPOSError/gatewayUnreachable`` when the gateway stops answering (what is
    ///   left stays stored), ``MPOSError/offlineStoreFailed``.
    func forwardStoredSales(window: Int = forwardWindow, asOperation: Bool = false) async throws(MPOSError)
        -> OfflineForwardReport
    {
        let hold = asOperation ? try gate.begin(.offlineForward) : nil
        defer { if let hold { gate.end(hold) } }
        // One pass at a time, so that a forced forward and the background one never send the
        // same record side by side; a caller that waited runs a fresh pass for what is left.
        while let running = forwardingPass { _ = await running.value }
        // Unstructured: the pass is shared with callers that arrive while it runs.
        let pass = Task { () async -> Result<OfflineForwardReport, MPOSError> in
            let result: Result<OfflineForwardReport, MPOSError>
            do throws(MPOSError) { result = .success(try await self.forwardPass(window: window)) } catch {
                result = .failure(error)
            }
            // Cleared by the pass itself, on the actor, so no waiter ever sees a finished pass.
            self.forwardingPass = nil
            return result
        }
        forwardingPass = pass
        return try await pass.value.get()
    }

    private func forwardPass(window: Int) async throws(MPOSError) -> OfflineForwardReport {
        switch session {
        case .journalRefused(let refusal): throw refusal
        case .offlineOnly: throw MPOSError.onlyOfflineSales
        case .gateway: guard await client.isLoggedIn else { throw MPOSError.notLoggedIn }
        }
        let contents = try await store.contents()
        if !contents.damagedSlots.isEmpty { events.emit(.offlineDataTampering(slots: contents.damagedSlots)) }
        var report = OfflineForwardReport(damagedSlots: contents.damagedSlots)
        let pending = contents.pending
        let client = self.client
        var schedule = OfflineForwardSchedule(pending.map { OfflineForwardSchedule.counterScope($0.request) }, window: window)
        var answered: [(index: Int, outcome: OfflineForwardOutcome)] = []
        var reached: [(index: Int, outcome: OfflineForwardOutcome)] = []
        var failure: MPOSError?
        await withTaskGroup(of: ForwardResult.self) { group in
            while true {
                while failure == nil, let index = schedule.nextToStart() {
                    let record = pending[index]
                    group.addTask { ForwardResult(index: index, result: await Self.forwardResult(record, client: client)) }
                }
                guard let forwarded = await group.next() else { break }
                schedule.finished(forwarded.index)
                switch forwarded.result {
                case .success(let outcome): answered.append((forwarded.index, outcome))
                // What failed stays stored; nothing more is started, what runs is let finish.
                case .failure(let error): failure = failure ?? error
                }
                // Marks are synced a window's worth at a time, and whenever nothing runs.
                guard answered.count >= schedule.window || schedule.running == 0 else { continue }
                do throws(MPOSError) {
                    try await store.markForwarded(answered.map(\.outcome))
                } catch {
                    failure = failure ?? error
                    answered = []
                    continue
                }
                for (_, outcome) in answered.sorted(by: { $0.index < $1.index }) { events.emit(.offlineForwarded(outcome)) }
                reached += answered
                answered = []
            }
        }
        report.outcomes = reached.sorted { $0.index < $1.index }.map(\.outcome)
        if let failure { throw failure }
        await compact()
        return report
    }

    private struct ForwardResult: Sendable {
        var index: Int
        var result: Result<OfflineForwardOutcome, MPOSError>
    }

    private static func forwardResult(_ record: OfflineRecord, client: GatewayClient) async
        -> Result<OfflineForwardOutcome, MPOSError>
    {
        do throws(MPOSError) {
            return .success(try await forward(record, client: client))
        } catch {
            return .failure(error)
        }
    }

    /// Posts the stored request under its key. The gateway answers a key it saw with the same
    /// body from the first time, so no lookup is needed before; a key it saw with another
    /// body (409 `idempotencyConflict`) is the online attempt that reached it before the sale
    /// was stored, and that attempt's transaction is the outcome.
    private static func forward(_ record: OfflineRecord, client: GatewayClient) async throws(MPOSError)
        -> OfflineForwardOutcome
    {
        var answer: GatewayAnswer
        do {
            answer = try await client.send(GatewayRoutes.authorizeCard, body: record.request, key: record.key)
        } catch {
            throw MPOSError.gatewayUnreachable
        }
        if case .refused(_, let body) = answer, body.code == GatewayErrorCode.idempotencyConflict {
            switch await client.lookup(record.key) {
            case .found(let found): answer = found
            case .notFound, .inProgress, .unreachable: throw MPOSError.gatewayUnreachable
            case .sessionRefused: throw MPOSError.gatewayUnauthorized
            }
        }
        switch answer {
        case .transaction(let transaction):
            return OfflineForwardOutcome(
                id: record.id, approved: transaction.status.isApproval, transactionID: transaction.id,
                responseCode: transaction.responseCode, forwardedAt: storedNow())
        case .refused(let status, let body)
        where status >= 500 || body.code == GatewayErrorCode.idempotencyInProgress:
            throw MPOSError.gatewayUnreachable.withMessage(
                "The gateway could not take the forward now: \(body.description)")
        case .refused(401, let body):
            // The session, not the sale, was refused (and could not be renewed): the sale
            // waits for a login with valid credentials.
            throw MPOSError.gatewayUnauthorized.withMessage(
                "The gateway refused the session; stored sales are forwarded after the next login (\(body.code)).")
        case .refused(_, let body):
            // The gateway refused the request itself: nothing was charged, for good.
            return OfflineForwardOutcome(
                id: record.id, approved: false, transactionID: nil, responseCode: String(body.code),
                forwardedAt: storedNow())
        }
    }

    /// Starts the background forward unless it runs; a sale stored while a pass runs gets a
    /// pass of its own after it (``OfflineForwarderMachine``).
    func startForwarder() {
        guard FileManager.default.fileExists(atPath: store.path) else { return }
        forwarder(.salesWaiting)
    }

    /// Starts the background forward after a login if stored sales wait (or damaged slots are
    /// to be reported): every online login seals its session into the store, so the file
    /// being there says nothing.
    func startForwarderIfSalesWait() async {
        // A store that cannot be read now is read again by the next login or sale; nothing is lost.
        guard FileManager.default.fileExists(atPath: store.path),
            let contents = try? await store.contents(), !contents.pending.isEmpty || !contents.damagedSlots.isEmpty
        else { return }
        forwarder(.salesWaiting)
    }

    /// Feeds the background forward's machine and carries out what it returns.
    func forwarder(_ event: OfflineForwarderMachine.Event) {
        for action in forwarderMachine.handle(event) {
            switch action {
            case .runPass:
                // Unstructured: forwarding outlives the sale that stored the payment.
                forwarderStep = Task { [weak self] in
                    guard let outcome = await self?.backgroundPass() else { return }
                    await self?.forwarder(.passEnded(outcome))
                }
            case .pause(let duration):
                let clock = self.clock
                forwarderStep = Task { [weak self] in
                    do { try await clock.sleep(for: duration) } catch { return }  // cancelled: the part is going away
                    await self?.forwarder(.pauseEnded)
                }
            }
        }
    }

    /// One background pass: it waits for a free terminal rather than holding it.
    private func backgroundPass() async -> OfflineForwarderMachine.PassOutcome {
        guard !gate.isBusy else { return .terminalBusy }
        do {
            _ = try await forwardStoredSales()
            return .finished
        } catch {
            return error.code == MPOSError.Code.gatewayUnreachable ? .gatewayAway : .finished
        }
    }

    /// Sets how long forwarded sales stay in the store (tests shorten it).
    func keepForwardedSales(for seconds: TimeInterval) { forwardedSalesKeptFor = seconds }

    /// Slots a compaction must free before it rewrites the store: 64 slots are 256 KB.
    static let compactionThreshold = 64

    /// Drops from the store what no longer needs keeping (``OfflineStore/compact(forwardedBefore:minimumDrop:)``)
    /// once there is enough of it; a store that cannot be compacted stays as it is, whole.
    func compact() async {
        let cutoff = Date().addingTimeInterval(-forwardedSalesKeptFor)
        // As said above: an uncompacted store is whole, only larger.
        _ = try? await store.compact(forwardedBefore: cutoff, minimumDrop: Self.compactionThreshold)
    }
}

/// Which stored sale is started next: in stored order, at most `window` in flight, and never
/// two of one card application and date at once.
///
/// One card's sales reach the issuer in the order they were made, so that it decides on the
/// card's balance as the sales drew on it, and a gateway that holds forwarded sales to their
/// chip counter's order (ATC, 9F36, per card application and transaction date 9A) sees them in
/// that order. So a sale waits while an earlier one of its card (masked PAN, PAN sequence
/// number 5F34, date 9A: same-looking cards are merely kept apart) is in flight, and the sales
/// after it wait too, so that starts stay in stored order. Sales of different cards are
/// answered in any order.
struct OfflineForwardSchedule {
    /// How many may be in flight.
    let window: Int
    private let scopes: [String]
    private var next = 0
    private var inFlight: Set<String> = []

    /// A schedule of sales whose counter scopes, in stored order, are `scopes`.
    init(_ scopes: [String], window: Int) {
        self.scopes = scopes
        self.window = max(1, window)
    }

    /// How many are in flight.
    var running: Int { inFlight.count }

    /// The index of the sale to start now, or nil when it must wait (or none is left).
    mutating func nextToStart() -> Int? {
        guard next < scopes.count, inFlight.count < window, !inFlight.contains(scopes[next]) else { return nil }
        inFlight.insert(scopes[next])
        next += 1
        return next - 1
    }

    /// The sale at `index` was answered (or failed).
    mutating func finished(_ index: Int) {
        inFlight.remove(scopes[index])
    }

    /// The card application and date whose counter a request's cryptogram carries.
    static func counterScope(_ request: AuthorizeCardRequest) -> String {
        // Unreadable EMV data has no counter to order by: such sales share the empty scope.
        let bytes = request.emvData.flatMap { try? Hex.decode($0) }  // as said above
        let tree = bytes.flatMap { try? TLVTree(decoding: $0) }  // as said above
        let psn = tree?[0x5F34].map { Hex.encode($0) } ?? ""
        let date = tree?[0x9A].map { Hex.encode($0) } ?? ""
        return "\(request.maskedPAN ?? "")|\(psn)|\(date)"
    }
}
