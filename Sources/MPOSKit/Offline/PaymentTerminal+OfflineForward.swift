import EMV
import Foundation
import GatewayAPI
import MPOSCore

// Forwarding the stored sales: batches of concurrent forwards, one synced write of marks per
// batch, and the background forwarder that waits for the gateway.
extension PaymentTerminal {
    /// How many forwards one batch sends side by side.
    static let forwardWindow = 32

    /// Forwards every stored sale not forwarded yet, each exactly once, in batches of
    /// ``forwardWindow`` concurrent requests started in stored order (``OfflineForwardBatches``
    /// keeps one card's sales in stored order). Each sale goes under the key fixed when it was
    /// stored; a batch's marks are appended and synced together after its answers. A crash
    /// before that sync forwards the batch again under the same keys, which the gateway
    /// answers from the first time.
    ///
    /// - Returns: the outcomes reached now.
    /// - Throws: ``MPOSError/gatewayUnreachable`` when the gateway stops answering (what is
    ///   left stays stored), ``MPOSError/offlineStoreFailed``.
    func forwardStoredSales(window: Int = forwardWindow) async throws(MPOSError) -> OfflineForwardReport {
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
        try await requireSession()
        let contents = try await offlineStore.contents()
        if !contents.damagedSlots.isEmpty { emit(.offlineDataTampering(slots: contents.damagedSlots)) }
        var report = OfflineForwardReport(damagedSlots: contents.damagedSlots)
        for batch in OfflineForwardBatches.split(contents.pending, window: max(1, window)) {
            let results = await Self.forward(batch, client: client)
            let outcomes = results.compactMap { try? $0.get() }
            try await offlineStore.markForwarded(outcomes)
            for outcome in outcomes {
                report.outcomes.append(outcome)
                emit(.offlineForwarded(outcome))
            }
            // What failed stays stored; later batches wait for the gateway too.
            for case .failure(let failure) in results { throw failure }
        }
        return report
    }

    /// Sends `batch` side by side; the results in the batch's order.
    private static func forward(_ batch: [OfflineRecord], client: GatewayClient) async
        -> [Result<OfflineForwardOutcome, MPOSError>]
    {
        await withTaskGroup(
            of: ForwardResult.self, returning: [Result<OfflineForwardOutcome, MPOSError>].self
        ) { group in
            for (index, record) in batch.enumerated() {
                group.addTask { ForwardResult(index: index, result: await forwardResult(record, client: client)) }
            }
            var results = [Result<OfflineForwardOutcome, MPOSError>?](repeating: nil, count: batch.count)
            for await forwarded in group { results[forwarded.index] = forwarded.result }
            return results.compactMap { $0 }
        }
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
            answer = try await client.send("POST", GatewayPaths.authorizeCard, body: record.request, key: record.key)
        } catch {
            throw MPOSError.gatewayUnreachable
        }
        if case .refused(_, let body) = answer, body.code == GatewayErrorCode.idempotencyConflict {
            switch await client.lookup(record.key) {
            case .found(let found): answer = found
            case .notFound, .inProgress, .unreachable: throw MPOSError.gatewayUnreachable
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
        case .refused(_, let body):
            // The gateway refused the request itself: nothing was charged, for good.
            return OfflineForwardOutcome(
                id: record.id, approved: false, transactionID: nil, responseCode: String(body.code),
                forwardedAt: storedNow())
        }
    }

    /// Starts forwarding in the background unless it runs: it waits for the gateway with the
    /// retry policy's growing pauses and stops when nothing is left or the session ended.
    func startOfflineForwarder() {
        guard offlineForwarder == nil, FileManager.default.fileExists(atPath: offlineStore.path) else {
            return
        }
        let clock = self.clock
        // Unstructured: forwarding outlives the sale that stored the payment.
        offlineForwarder = Task { [weak self] in
            var failures = 0
            while let self, !Task.isCancelled {
                if await self.forwardInBackground() { break }
                failures += 1
                // 2 s, 4 s … at most a minute: the gateway may stay away for hours.
                try? await clock.sleep(for: .seconds(min(1 << min(failures, 6), 60)))
            }
            await self?.forwarderEnded()
        }
    }

    /// Starts the background forward after a login if stored sales wait (or damaged slots are
    /// to be reported): every online login seals its session into the store, so the file
    /// being there says nothing.
    func startOfflineForwarderIfSalesWait() async {
        guard offlineForwarder == nil, FileManager.default.fileExists(atPath: offlineStore.path),
            let contents = try? await offlineStore.contents(), !contents.pending.isEmpty || !contents.damagedSlots.isEmpty
        else { return }
        startOfflineForwarder()
    }

    /// One background pass; true when it is done (all forwarded, or nothing it can do).
    private func forwardInBackground() async -> Bool {
        guard !busy else { return false }
        do {
            _ = try await forwardStoredSales()
            return true
        } catch {
            return error.code != MPOSError.Code.gatewayUnreachable
        }
    }

    private func forwarderEnded() { offlineForwarder = nil }
}

/// How stored sales are cut into batches of concurrent forwards.
///
/// The sandbox issuer, like a real one, refuses a cryptogram whose counter (ATC, 9F36) is not
/// above the highest it saw for that card application on that transaction date (9A): two
/// sales of one card sent side by side could reach it out of order and the later-stored one
/// would wrongly be refused. So a batch holds at most one sale per card application and date
/// (masked PAN, PAN sequence number 5F34, date 9A: same-looking cards are merely kept apart),
/// batches go one after another, and each card's sales are forwarded in stored order; sales
/// of different cards are started in stored order and may be answered in any order.
enum OfflineForwardBatches {
    /// `records` (in stored order) as batches of at most `window`, in stored order.
    static func split(_ records: [OfflineRecord], window: Int) -> [[OfflineRecord]] {
        var batches: [[OfflineRecord]] = []
        var batch: [OfflineRecord] = []
        var cards: Set<String> = []
        for record in records {
            let card = counterScope(record.request)
            if batch.count == window || cards.contains(card) {
                batches.append(batch)
                batch = []
                cards = []
            }
            batch.append(record)
            cards.insert(card)
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    /// The card application and date whose counter a request's cryptogram carries.
    static func counterScope(_ request: AuthorizeCardRequest) -> String {
        let bytes = request.emvData.flatMap { try? Hex.decode($0) }
        let tree = bytes.flatMap { try? TLVTree(decoding: $0) }
        let psn = tree?[0x5F34].map { Hex.encode($0) } ?? ""
        let date = tree?[0x9A].map { Hex.encode($0) } ?? ""
        return "\(request.maskedPAN ?? "")|\(psn)|\(date)"
    }
}
