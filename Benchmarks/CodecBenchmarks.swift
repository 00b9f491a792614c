import Foundation
import GatewayAPI
import MPOSCore

/// What the gateway's JSON costs per payment: the SDK encodes an authorization request and
/// decodes the transaction it gets back; the gateway does the opposite. Each figure is one
/// value through `GatewayJSON`'s encoder and decoder, the way the authorization path uses them.
func codecBenchmarks() throws -> [Benchmark] {
    // An approved chip sale as the sandbox answers it: every field the path fills.
    let transaction = Transaction(
        id: TransactionID(rawValue: "txn_0123456789abcdef01234567")!, kind: .sale, status: .approved,
        requestedAmount: 12_34, approvedAmount: 12_34, totalAmount: 12_34, currency: .eur,
        authorizationCode: "A1B2C3", responseCode: "00", issuerAuthenticationData: "0123456789ABCDEF3030",
        batchID: "batch-2026-11-25", card: CardSummary(scheme: "visa", maskedPAN: "476173******0119", expiryMonth: 12, expiryYear: 2049),
        entryMode: .chip, cvm: .pin,
        emv: EMVSummary(
            aid: "A0000000031010", applicationLabel: "VISA CREDIT", tvr: "0000000000", tsi: "E800",
            applicationCryptogram: "1122334455667788"),
        externalID: "order-42", createdAt: Date(timeIntervalSince1970: 1_764_000_000),
        receipt: ReceiptInfo(receiptNumber: 7, signatureRequired: false))
    let transactionJSON = try GatewayJSON.encoder.encode(transaction)
    // 300 bytes of chip data, as hex, like a real ARQC request's.
    let emvHex = String(repeating: "9F2608A1B2C3D4E5F60718", count: 27) + "9F02060000"
    let request = AuthorizeCardRequest(
        kind: .sale, parameters: PaymentParameters(amount: 12_34, currency: .eur, externalID: "order-42"),
        emvData: emvHex, entryMode: .chip, cvm: .pin)
    let requestJSON = try GatewayJSON.encoder.encode(request)
    /// `work` as a benchmark of `name`, adding up what it returns so the optimizer keeps it.
    func codec(_ name: String, _ work: @escaping () throws -> Int) -> Benchmark {
        Benchmark(name: name, unit: "ns", run: { count in
            var total = 0
            for _ in 0..<count { total &+= try work() }
            return total
        }, batch: 100, batches: 100)
    }
    return [
        codec("codec.transaction.encode") { try GatewayJSON.encoder.encode(transaction).count },
        codec("codec.transaction.decode") {
            Int(try GatewayJSON.decoder.decode(Transaction.self, from: transactionJSON).totalAmount)
        },
        codec("codec.request.encode") { try GatewayJSON.encoder.encode(request).count },
        codec("codec.request.decode") {
            Int(try GatewayJSON.decoder.decode(AuthorizeCardRequest.self, from: requestJSON).parameters.amount)
        },
    ]
}
