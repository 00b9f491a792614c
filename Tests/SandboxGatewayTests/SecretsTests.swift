import Crypto
import Foundation
import Testing

@testable import SandboxGateway

/// The gateway's random identifiers and hex forms, which tokens, hashes and transaction ids
/// are stored and compared in.
@Suite(.timeLimit(.minutes(2))) struct SecretsTests {
    @Test func hexIsLowerCaseTwoDigitsPerByte() {
        #expect(Secrets.hex([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Secrets.hex([]) == "")
        #expect(
            Secrets.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: [0, 1, 7, 8, 9, 12, 32])
    func randomBytesHaveTheLengthAskedFor(count: Int) {
        #expect(Secrets.randomBytes(count).count == count)
    }

    @Test func randomIdentifiersDoNotRepeat() {
        let ids = (0..<200).map { _ in PaymentService.newTransactionID(at: Date()) }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.hasPrefix("txn_") && $0.count == 28 })
        #expect(ids.allSatisfy { $0.dropFirst(4).allSatisfy { "0123456789abcdef".contains($0) } })
        // Made later, sorted later; the same millisecond, still apart.
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        let timed = (0..<50).map { PaymentService.newTransactionID(at: start.addingTimeInterval(Double($0) / 100)) }
        #expect(timed == timed.sorted())
        #expect(timed.allSatisfy { $0.hasPrefix("txn_019ab697") })
        let sameTime = (0..<50).map { _ in PaymentService.newTransactionID(at: start) }
        #expect(Set(sameTime).count == sameTime.count)
        #expect(PaymentService.newTransactionID(at: Date(timeIntervalSince1970: -1)).hasPrefix("txn_000000000000"))
        // Every byte position takes many values (a draw is spread over all eight bytes).
        let samples = (0..<200).map { _ in Secrets.randomBytes(16) }
        for position in 0..<16 { #expect(Set(samples.map { $0[position] }).count > 100) }
    }
}
