import Foundation
import GatewayAPI
import MPOSCore

// The terminal's side of store and forward: storing what the card approved offline, the
// policy check before a sale, recovery's hand-off, and forwarding in stored order.
extension PaymentTerminal {
    /// The stored sales and the forwarding (``OfflinePayments``).
    public nonisolated var offline: OfflinePayments { OfflinePayments(terminal: self) }

    /// Stores the sale the card approved offline, synced before it returns; starts the
    /// background forward.
    func storeOffline(_ request: AuthorizeCardRequest, key: IdempotencyKey) async -> Result<UUID, MPOSError> {
        let now = Self.storedNow()
        var request = request
        request.offlineStoredAt = now
        let record = OfflineRecord(id: UUID(), key: key, storedAt: now, request: request)
        do {
            try await offlineStore.append(record)
        } catch {
            return .failure(error)
        }
        startOfflineForwarder()
        return .success(record.id)
    }

    /// Now, to the whole second: the times stored in the file (ISO 8601) read back equal.
    static func storedNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    /// Why a sale with `parameters` may not be taken offline (the device's offline checks,
    /// then the policy), or nil.
    func offlineRefusal(_ parameters: PaymentParameters) async -> MPOSError? {
        if let refusal = await deviceOfflineRefusal() { return refusal }
        let pending: [StoredOfflinePayment]
        do {
            pending = try await offlineStore.contents().pending.map { $0.summary(forwarded: nil) }
        } catch {
            return error
        }
        return offlinePolicy.refusal(
            amount: parameters.amount, currency: parameters.currency, pending: pending,
            lastOnline: lastOnlineSession, now: Date())
    }

    /// The unfinished journal entries recovery may settle: one whose key the offline store
    /// holds belongs to the store (a crash came between storing it and finishing its entry),
    /// so its entry is finished here instead of being looked up and reversed.
    func entriesNotStoredOffline(_ entries: [JournalEntry]) async throws(MPOSError) -> [JournalEntry] {
        var left: [JournalEntry] = []
        for var entry in entries {
            if case .card(.sale) = entry.operation, try await offlineStore.holds(entry.key) {
                entry.state = .finished
                entry.outcome = .approvedOffline
                entry.updatedAt = Date()
                try await journal.write(entry)
            } else {
                left.append(entry)
            }
        }
        return left
    }

    /// Forwards every stored sale not forwarded yet, in stored order, each exactly once: the
    /// attempt is looked up by its key first (the online attempt may have reached the gateway),
    /// sent only if the gateway never saw it, and marked forwarded (synced) after the answer.
    /// A crash between the answer and the mark forwards it again under the same key, which
    /// the gateway answers from the first time.
    ///
    /// - Returns: the outcomes reached now.
    /// - Throws: ``MPOSError/gatewayUnreachable`` when the gateway stops answering (what is
    ///   left stays stored), ``MPOSError/offlineStoreFailed``.
    func forwardStoredSales() async throws(MPOSError) -> OfflineForwardReport {
        // One pass at a time, so that a forced forward and the background one never send the
        // same record side by side; a caller that waited runs a fresh pass for what is left.
        while let running = forwardingPass { _ = await running.value }
        // Unstructured: the pass is shared with callers that arrive while it runs.
        let pass = Task { () async -> Result<OfflineForwardReport, MPOSError> in
            let result: Result<OfflineForwardReport, MPOSError>
            do throws(MPOSError) { result = .success(try await self.forwardPass()) } catch {
                result = .failure(error)
            }
            // Cleared by the pass itself, on the actor, so no waiter ever sees a finished pass.
            self.forwardingPass = nil
            return result
        }
        forwardingPass = pass
        return try await pass.value.get()
    }

    private func forwardPass() async throws(MPOSError) -> OfflineForwardReport {
        try await requireSession()
        let contents = try await offlineStore.contents()
        if !contents.damagedSlots.isEmpty { emit(.offlineDataTampering(slots: contents.damagedSlots)) }
        var report = OfflineForwardReport(damagedSlots: contents.damagedSlots)
        for record in contents.pending {
            let outcome = try await forward(record)
            try await offlineStore.markForwarded(outcome)
            report.outcomes.append(outcome)
            emit(.offlineForwarded(outcome))
        }
        return report
    }

    private func forward(_ record: OfflineRecord) async throws(MPOSError) -> OfflineForwardOutcome {
        var answer: GatewayAnswer
        switch await client.lookup(record.key) {
        case .found(let found):
            answer = found
        case .notFound:
            do {
                answer = try await client.send(
                    "POST", GatewayPaths.authorizeCard, body: record.request, key: record.key)
            } catch {
                throw MPOSError.gatewayUnreachable
            }
        case .inProgress, .unreachable:
            throw MPOSError.gatewayUnreachable
        }
        switch answer {
        case .transaction(let transaction):
            return OfflineForwardOutcome(
                id: record.id, approved: transaction.status.isApproval, transactionID: transaction.id,
                responseCode: transaction.responseCode, forwardedAt: Self.storedNow())
        case .refused(let status, let body)
        where status >= 500 || body.code == GatewayErrorCode.idempotencyInProgress:
            throw MPOSError.gatewayUnreachable.withMessage(
                "The gateway could not take the forward now: \(body.description)")
        case .refused(_, let body):
            // The gateway refused the request itself: nothing was charged, for good.
            return OfflineForwardOutcome(
                id: record.id, approved: false, transactionID: nil, responseCode: String(body.code),
                forwardedAt: Self.storedNow())
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

    /// The stored sales, forwarded or not, in stored order, and the damaged slots.
    func listStoredSales() async throws(MPOSError) -> OfflineStoreListing {
        let contents = try await offlineStore.contents()
        return OfflineStoreListing(
            payments: contents.records.map { $0.summary(forwarded: contents.forwarded[$0.id]) },
            damagedSlots: contents.damagedSlots)
    }
}
