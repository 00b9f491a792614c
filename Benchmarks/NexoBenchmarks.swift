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
    return [
        Benchmark(
            name: "nexo.decode.payment_request", unit: "ns",
            run: { count in
                var total = 0
                for index in 0..<count {
                    let request = try NexoCoder.decodeRequest(requests[index % requests.count])
                    total &+= request.messageHeader.saleID.utf8.count
                }
                return total
            }, batch: 50, batches: 100),
        Benchmark(
            name: "nexo.encode.payment_response", unit: "ns",
            run: { count in
                var total = 0
                for index in 0..<count {
                    total &+= NexoCoder.encode(responses[index % responses.count]).count
                }
                return total
            }, batch: 50, batches: 100),
        Benchmark(
            name: "nexo.encrypt_decrypt", unit: "ns",
            run: { count in
                var total = 0
                for _ in 0..<count {
                    let sealed = crypto.encrypt(plain, using: &generator)
                    total &+= try crypto.decrypt(sealed).messageHeader.poiID.utf8.count
                }
                return total
            }, batch: 20, batches: 100),
    ]
}
