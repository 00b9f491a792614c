import Foundation
import TerminalAPI

/// Terminal API JSON per message, over Adyen's example messages in the TerminalAPI test
/// fixtures: decoding the payment requests, encoding the payment responses, and one encrypted
/// round trip (encrypt a request, decrypt it, decode the plaintext) under Adyen's scheme.
func nexoBenchmarks() throws -> [Benchmark] {
    let folder = "Tests/TerminalAPITests/Fixtures/adyen-mock-terminal-api"
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    let requests = try names.filter { $0.hasPrefix("payment__") && $0.hasSuffix("Request.json") }
        .map { try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)")) }
    let responses = try names.filter { $0.hasPrefix("payment__") && $0.hasSuffix("Response.json") }
        .map { try NexoCoder.decodeResponse(Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))) }
    guard !requests.isEmpty, !responses.isEmpty else {
        throw BenchmarkInputMissing(name: "payment__*.json", looked: [folder])
    }
    let crypto = NexoCrypto(
        key: NexoSecurityKey(keyIdentifier: "bench", keyVersion: 1, passphrase: "bench-passphrase"))
    let plain = try NexoCoder.decodeRequest(requests[0])
    var generator = SystemRandomNumberGenerator()
    /// `work` once per operation, summing what it returns so the optimizer keeps it.
    func perMessage(_ name: String, batch: Int, _ work: @escaping (Int) throws -> Int) -> Benchmark {
        Benchmark(
            name: name, unit: "ns",
            run: { count in
                var total = 0
                for index in 0..<count { total &+= try work(index) }
                return total
            }, batch: batch, batches: 100)
    }
    return [
        perMessage("nexo.decode.payment_request", batch: 50) { index in
            try NexoCoder.decodeRequest(requests[index % requests.count]).messageHeader.saleID.utf8.count
        },
        perMessage("nexo.encode.payment_response", batch: 50) { index in
            NexoCoder.encode(responses[index % responses.count]).count
        },
        perMessage("nexo.encrypt_decrypt", batch: 20) { _ in
            try crypto.decrypt(crypto.encrypt(plain, using: &generator)).messageHeader.poiID.utf8.count
        },
    ]
}
