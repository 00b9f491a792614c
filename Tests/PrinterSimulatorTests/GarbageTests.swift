import Foundation
import MPOSTestSupport
import PrinterSimulator
import Testing

@Suite(.timeLimit(.minutes(3)))
struct GarbageTests {
    /// Random bytes, biased towards command introducers so that commands are hit often, fed in
    /// random pieces: the decoder and emulator never trap and the buffer stays bounded.
    @Test func randomBytesNeverCrashAndStayBounded() {
        var random = SplitMix64(seed: SplitMix64.testSeed(environment: ProcessInfo.processInfo.environment))
        let introducers: [UInt8] = [0x1B, 0x1D, 0x10, 0x1C, 0x0A]
        var decoded = 0
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...64, using: &random)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &random) ? introducers.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            var emulator = PrinterEmulator(model: .paper58mm, rasterByteLimit: 256)
            let split = Int.random(in: 0...count, using: &random)
            let first = emulator.receive(bytes[..<split])
            let second = emulator.receive(bytes[split...])
            let end = emulator.endOfStream()
            decoded += first.log.count + second.log.count + end.log.count + end.jobs.count
            for job in first.jobs + second.jobs + end.jobs {
                #expect(job.lines.allSatisfy { $0.count <= 32 })
            }
            var decoder = EscPosDecoder(rasterByteLimit: 256)
            _ = decoder.feed(bytes)
            #expect(decoder.bufferedByteCount <= 65_538 + 8)
        }
        #expect(decoded > 0)
    }
}
