import Crypto
import ReaderLink
import ReaderSimulator

/// `update.transfer.windowed` and `update.transfer.stop_and_wait`: an update image of 2 MiB
/// written to the simulated reader over loopback TCP in 4 KiB pieces, in KiB/s, with 16 pieces
/// in flight and with one (waiting a round trip per piece). The write is what a merchant waits
/// through at the counter; the reader checks the image afterwards, which is not timed here.
func updateBenchmarks() -> [AsyncBenchmark] {
    [("update.transfer.windowed", 16), ("update.transfer.stop_and_wait", 1)].map { name, window in
        AsyncBenchmark(name: name) {
            let image = (0..<(2 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let digest = Array(SHA256.hash(data: image))
            try await withPairedTCPReader { connection in
                var rates: [Double] = []
                for round in 0..<5 {
                    // A new version each round, so the reader starts every transfer at offset 0.
                    _ = try await connection.request(
                        .updateBegin(
                            UpdateBegin(slot: .firmware, size: UInt32(image.count), sha256: digest, version: "bench-\(round)")))
                    let pieces = stride(from: 0, to: image.count, by: 4_096).map { offset in
                        ReaderMessage.updateChunk(
                            offset: UInt32(offset), bytes: Array(image[offset..<min(offset + 4_096, image.count)]))
                    }
                    let start = monotonicNanoseconds()
                    _ = try await connection.requestWindowed(pieces, window: window)
                    let seconds = Double(monotonicNanoseconds() - start) / 1e9
                    rates.append(Double(image.count) / 1024 / seconds)
                }
                rates.sort()
                emit(name: name, unit: "KiB/s", value: rates[rates.count / 2], extra: ["window": Double(window)])
            }
        }
    }
}
