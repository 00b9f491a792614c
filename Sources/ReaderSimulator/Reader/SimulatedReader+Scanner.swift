import ReaderLink

/// The barcode scanner's life: on, codes, and off again (disabled, timed out, or done after a
/// single scan), each end reported with `scannerDisabled` as Handpoint's `responseScannerDisabled`.
extension SimulatedReader {
    func enableScanner(_ configuration: ScannerConfiguration) {
        // The watch below times the scanner out on the reader's clock, so the scanner itself has none.
        scanner.enable(
            mode: configuration.multiScan ? .multi : .single, timeout: nil, buttonMode: configuration.buttonMode,
            now: scannerTime)
        scannerActivity += 1
        scannerWatch?.cancel()
        scannerWatch = nil
        guard configuration.timeoutSeconds > 0 else { return }
        let timeout = Duration.seconds(Int(configuration.timeoutSeconds))
        let clock = self.clock
        // Unstructured: the scanner times out on its own while the reader answers requests; stopping it cancels this.
        scannerWatch = Task { [weak self] in
            while true {
                guard let seen = await self?.scannerActivity else { return }
                do { try await clock.sleep(for: timeout) } catch { return }
                guard let self, await self.scanner.isEnabled else { return }
                guard await self.scannerIdle(since: seen) else { continue }
                await self.scannerStopped("timed out after \(timeout) without a code")
                return
            }
        }
    }

    /// Whether the scanner is on and nothing happened since activity count `seen`.
    func scannerIdle(since seen: Int) -> Bool { scanner.isEnabled && scannerActivity == seen }

    /// Turns the scanner off and tells the SDK why it stopped.
    func scannerStopped(_ reason: String) async {
        scanner.disable()
        scannerWatch?.cancel()
        scannerWatch = nil
        record(.info, "scanner off: \(reason)")
        await emit(.scannerDisabled)
    }
}
