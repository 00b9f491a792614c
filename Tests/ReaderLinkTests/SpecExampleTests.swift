import EMV
import Testing

@testable import ReaderLink

/// Bytes written by an independent encoder (Python, from docs/reader-protocol.md alone; the same
/// bytes are seeds in Fuzz/corpus/frame), so the Swift codec is checked against the document
/// rather than against itself.
@Suite(.timeLimit(.minutes(2)))
struct SpecExampleTests {
    @Test func startTransactionFromTheSpec() throws {
        let bytes = try Hex.decode(
            "30000454582d310100000000000004e20103d20002000000000000006400000000000000c800010a0100")
        let expected = ReaderMessage.startTransaction(
            StartTransaction(
                transactionID: "TX-1", kind: .sale, amountMinorUnits: 1250, currency: .numeric(978),
                tipAmounts: [100, 200], tipPercentages: [10], cardholderPresent: true))
        #expect(try ReaderMessage(decoding: bytes) == expected)
        #expect(expected.encoded() == bytes)
    }

    @Test func authorizationRequestFromTheSpec() throws {
        let bytes = try Hex.decode(
            "38000454582d310000000b9f2608112233445566778800000010010101010101010101010101010101010000000a"
                + "ffffffffffffffffffff00103534313333332a2a2a2a2a2a343131310000043238313203020100024d4300")
        let expected = ReaderMessage.authorizationRequest(
            AuthorizationRequest(
                transactionID: "TX-1", emvData: try Hex.decode("9F26081122334455667788"),
                encryptedCardData: [UInt8](repeating: 1, count: 16), ksn: [UInt8](repeating: 0xFF, count: 10),
                maskedPAN: "541333******4111", expiry: "2812", entryMode: .chip, cvm: .pin,
                applicationLabel: "MC"))
        #expect(try ReaderMessage(decoding: bytes) == expected)
    }

    @Test func statusEventFrameFromTheSpec() throws {
        var decoder = FrameDecoder()
        decoder.append(
            try Hex.decode("a54c011200000200183d0014000b496e7365727420636172640101000454582d31b8402883"))
        let frame = try #require(try decoder.nextFrame())
        #expect(frame.type == .event)
        #expect(frame.sequence == 2)
        #expect(
            try ReaderMessage(decoding: frame.payload)
                == .statusReport(
                    StatusReport(
                        status: .waitingCard, message: "Insert card", cancelAllowed: true,
                        transactionID: "TX-1")))
    }
}
