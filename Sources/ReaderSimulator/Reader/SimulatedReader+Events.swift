import MPOSCore
import ReaderLink

/// Output: events to the SDK, held back while a transaction works without waiting and sent together.
extension SimulatedReader {
    func emit(_ message: ReaderMessage) async {
        guard let session, !unresponsive else { return }
        if holdingEvents {
            heldEvents.append(message)
            return
        }
        do { try await session.emit(message) } catch { record(.debug, "emit failed: \(error)") }
    }

    /// From now on, events wait for ``releaseEvents()``.
    func holdEvents() { holdingEvents = true }

    /// Sends the held events, in order and together, and stops holding.
    func releaseEvents() async {
        holdingEvents = false
        guard !heldEvents.isEmpty else { return }
        let events = heldEvents
        heldEvents = []
        guard let session, !unresponsive else { return }
        do { try await session.emit(events) } catch { record(.debug, "emit failed: \(error)") }
    }

    func status(_ code: ReaderStatusCode, _ message: String, cancelAllowed: Bool) async {
        self.cancelAllowed = cancelAllowed
        await emit(.statusReport(StatusReport(
            status: code, message: message, cancelAllowed: cancelAllowed, transactionID: transactionID)))
    }

    func report(batteryEvents: [Battery.Event]) async {
        for event in batteryEvents {
            switch event {
            case .low(let percentage):
                record(.info, "battery low: \(percentage)%")
                await emit(.battery(batteryStatus))
                await emit(.statusReport(StatusReport(
                    status: .batteryTooLow, message: "Battery low (\(percentage)%)", cancelAllowed: false)))
            case .critical, .charging:
                await emit(.battery(batteryStatus))
            }
        }
    }

    func record(_ level: ReaderSimulator.ReaderLogLevel, _ message: String) {
        _ = log.append(level, message)
    }
}
