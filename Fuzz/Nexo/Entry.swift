// libFuzzer entry point for the Terminal API (nexo JSON) decoder. Built and run by
// Scripts/fuzz.sh.
//
// Beyond "never crash", each input checks that the decoder agrees with itself:
// - a message that decodes encodes to JSON that decodes to the same message;
// - a decoded request encrypted under a fixed key decrypts to the same request;
// - a refusal always names a condition and describes itself;
// - the value parsers (timestamps, amounts, Adyen's key-value strings) take any text.
import Foundation
import TerminalAPI

private let crypto = NexoCrypto(
    key: NexoSecurityKey(keyIdentifier: "fuzz", keyVersion: 1, passphrase: "fuzz"))

private struct FixedNonces: RandomNumberGenerator {
    var state: UInt64 = 1
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

/// Stops the fuzzer when `check` is false or throws: what decoded once must decode again.
private func must(_ check: () throws -> Bool, line: UInt = #line) {
    do {
        let same = try check()
        precondition(same, "round trip changed the value (line \(line))")
    } catch {
        preconditionFailure("round trip refused: \(error) (line \(line))")
    }
}

/// libFuzzer's entry point: one input, checked as the file's header says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNexo(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let request = try NexoCoder.decodeRequest(bytes)
        must { try NexoCoder.decodeRequest(NexoCoder.encode(request)) == request }
        if request.nexoBlob == nil {
            var nonces = FixedNonces()
            must { try crypto.decrypt(crypto.encrypt(request, using: &nonces)) == request }
        } else {
            _ = try? crypto.decrypt(request)
        }
    } catch {
        precondition(!error.description.isEmpty)
    }
    do {
        let response = try NexoCoder.decodeResponse(bytes)
        must { try NexoCoder.decodeResponse(NexoCoder.encode(response)) == response }
    } catch {
        precondition(!error.description.isEmpty)
    }
    _ = try? NexoCoder.decode(AuthenticatedData.self, from: bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    if let timestamp = NexoTimestamp(text) { precondition(NexoTimestamp(timestamp.text) == timestamp) }
    if let amount = NexoAmount(text) { _ = try? amount.minorUnits(exponent: Int(bytes.first ?? 0) % 5) }
    let response = AdditionalResponse(text: text)
    _ = (
        response.refusalReasonCode, response.authorizedMinorUnits,
        SaleToAcquirerData(text: text).tenderOptions
    )
    return 0
}
