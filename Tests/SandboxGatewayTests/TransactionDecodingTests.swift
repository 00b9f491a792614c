import Foundation
import MPOSCore
import Testing

@testable import GatewayAPI
@testable import SandboxGateway

/// `Transaction.decodeGatewayJSON` must give what `JSONDecoder` gives, value or error, and
/// read the gateway's own answers by hand (not by falling back).
@Suite struct TransactionDecodingTests {
    /// A decoding's value, or its error as text (the same bytes give the same error).
    enum Outcome: Equatable {
        case success(Transaction)
        case failure(String)
    }

    static func reference(_ data: Data) -> Outcome {
        do { return .success(try GatewayJSON.makeDecoder().decode(Transaction.self, from: data)) } catch {
            return .failure(String(describing: error))
        }
    }

    static func decoded(_ data: Data) -> Outcome {
        do { return .success(try Transaction.decodeGatewayJSON(data)) } catch {
            return .failure(String(describing: error))
        }
    }

    static func text(_ json: String) -> Data { Data(json.utf8) }

    @Test(arguments: ["plain", "", "quote \" backslash \\ slash / tab \t newline \n return \r"])
    func theGatewaysAnswersAreReadByHandAsJSONDecoderReadsThem(text: String) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let seconds = Double(Int64.random(in: -2_000_000_000...4_102_444_800, using: &generator))
            let filled = TransactionJSONTests.filled(text: text, seconds: seconds)
            for data in [TransactionJSON.data(filled), try GatewayJSON.makeEncoder().encode(filled)] {
                let hand = try Transaction.handDecoded(data)
                #expect(hand == filled, "at \(seconds)")
                #expect(Self.reference(data) == .success(hand))
            }
        }
        let empty = Transaction(
            id: TransactionJSONTests.id, kind: .sale, status: .declined, requestedAmount: 1, approvedAmount: 0,
            totalAmount: 0, currency: .eur, createdAt: Date(timeIntervalSince1970: 0))
        #expect(try Transaction.handDecoded(TransactionJSON.data(empty)) == empty)
    }

    /// Texts the hand reader passes to JSONDecoder (non-ASCII, `\u` escapes, fractions) or
    /// that JSONDecoder refuses: the answer is JSONDecoder's either way.
    @Test func everythingElseGetsJSONDecodersAnswer() throws {
        let base = String(decoding: TransactionJSON.data(TransactionJSONTests.filled(text: "x", seconds: 1_700_000_000)), as: UTF8.self)
        let variants: [String] = [
            base,
            base.replacingOccurrences(of: "\"acquirerMessage\":\"x\"", with: "\"acquirerMessage\":\"Ünïcödé 🙂\""),
            base.replacingOccurrences(of: "\"acquirerMessage\":\"x\"", with: "\"acquirerMessage\":\"\\u00e9\\ud83d\\ude42\""),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":1234.0"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":1.5"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":12e2"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":\"1234\""),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":99999999999999999999"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":01234"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":-0"),
            base.replacingOccurrences(of: "\"requestedAmount\":1234,", with: ""),
            base.replacingOccurrences(of: "\"requestedAmount\":1234", with: "\"requestedAmount\":null"),
            base.replacingOccurrences(of: "\"kind\":\"refund\"", with: "\"kind\":\"teleport\""),
            base.replacingOccurrences(of: "\"currency\":\"JPY\"", with: "\"currency\":\"XYZ\""),
            base.replacingOccurrences(of: "\"currency\":\"JPY\"", with: "\"currency\":\"jpy\""),
            base.replacingOccurrences(of: "\"id\":\"txn_0123456789abcdef01234567\"", with: "\"id\":\"\""),
            base.replacingOccurrences(of: "\"batchID\":\"17\"", with: "\"batchID\":null"),
            base.replacingOccurrences(of: "\"batchID\":\"17\"", with: "\"batchID\":17"),
            base.replacingOccurrences(of: "\"cvm\":\"pinAndSignature\"", with: "\"cvm\":null"),
            base.replacingOccurrences(of: "\"createdAt\":\"2023-11-14T22:13:20Z\"", with: "\"createdAt\":\"2023-11-14T22:13:20.5Z\""),
            base.replacingOccurrences(of: "\"createdAt\":\"2023-11-14T22:13:20Z\"", with: "\"createdAt\":\"2023-11-14T23:13:20+01:00\""),
            base.replacingOccurrences(of: "\"createdAt\":\"2023-11-14T22:13:20Z\"", with: "\"createdAt\":\"2023-02-29T22:13:20Z\""),
            base.replacingOccurrences(of: "\"createdAt\":\"2023-11-14T22:13:20Z\"", with: "\"createdAt\":\"2023-11-14T24:00:00Z\""),
            base.replacingOccurrences(of: "\"createdAt\":\"2023-11-14T22:13:20Z\"", with: "\"createdAt\":1700000000"),
            base.replacingOccurrences(of: "\"scheme\":\"visa\"", with: "\"scheme\":null"),
            base.replacingOccurrences(of: "\"signatureRequired\":true", with: "\"signatureRequired\":1"),
            base.replacingOccurrences(of: "\"card\":{", with: "\"card\":null,\"cardX\":{"),
            base.replacingOccurrences(of: "{\"acquirerMessage\"", with: "{\"unknown\":[1,{\"a\":[true,null,\"]\"]},-2],\"acquirerMessage\""),
            base.replacingOccurrences(of: "{\"acquirerMessage\"", with: "{\"acquirerMessage\":\"y\",\"acquirerMessage\""),
            base.replacingOccurrences(of: ",", with: " ,\n\t"),
            base + " ",
            base + "x",
            base + "{}",
            String(base.dropLast()),
            String(base.dropLast()) + ",}",
            "[" + base + "]",
            "",
            "null",
            "{}",
        ]
        for variant in variants {
            let data = Self.text(variant)
            #expect(Self.decoded(data) == Self.reference(data), "\(variant)")
        }
        // The whitespace, unknown-member and plain variants are read by hand.
        for index in [0, 27, 29, 30] {
            #expect(throws: Never.self) { try Transaction.handDecoded(Self.text(variants[index])) }
        }
    }

    /// Every byte string cut short or with one byte changed: still JSONDecoder's answer, and
    /// never a crash.
    @Test func damagedTextsGetJSONDecodersAnswer() {
        let bytes = [UInt8](TransactionJSON.data(TransactionJSONTests.filled(text: "a\"b", seconds: 1_700_000_000)))
        for length in stride(from: 0, to: bytes.count, by: 3) {
            let data = Data(bytes[..<length])
            #expect(Self.decoded(data) == Self.reference(data))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            let data = Data(damaged)
            #expect(Self.decoded(data) == Self.reference(data), "\(String(decoding: damaged, as: UTF8.self))")
        }
    }

    /// A field added to `Transaction` must be added to the hand reader too.
    @Test func theReaderKnowsEveryField() {
        #expect(Mirror(reflecting: TransactionJSONTests.filled(text: "x", seconds: 0)).children.count
            == Transaction.handDecodedFieldCount)
    }
}

/// The hand-written card authorization request must be exactly what `JSONEncoder` writes.
@Suite struct AuthorizeCardRequestJSONTests {
    static func encoderBytes(_ request: AuthorizeCardRequest) throws -> Data {
        try GatewayJSON.makeEncoder().encode(request)
    }

    @Test(arguments: ["plain", "", "quote \" backslash \\ slash / tab \t newline \n", "Ünïcödé € 🙂 \u{1f}"])
    func aRequestMatchesJSONEncoder(text: String) throws {
        var request = AuthorizeCardRequest(
            kind: .preAuthorization, amount: Int64.max, currency: .jpy, emvData: "9F2608" + text,
            encryptedCardData: text, ksn: "FFFF", maskedPAN: "411111******1111", entryMode: .contactless,
            cvm: .pinAndSignature, cardholderPresent: false, customerReference: text, externalID: text,
            statementDescriptor: text, statementDescriptorSuffix: text, duplicateCheck: false,
            allowPartialApproval: true, captureMode: .tipAdjustment)
        #expect(try request.gatewayJSON() == (try Self.encoderBytes(request)))
        request = AuthorizeCardRequest(kind: .sale, amount: -1, currency: .eur, entryMode: .chip, cvm: .notRequired)
        #expect(try request.gatewayJSON() == (try Self.encoderBytes(request)))
        // Instalments and baskets take JSONEncoder's path, with the same bytes by definition.
        request.installments = Installments(count: 3)
        #expect(try request.gatewayJSON() == (try Self.encoderBytes(request)))
    }

    /// A field added to the request must be added to the writer too.
    @Test func theWriterKnowsEveryField() {
        let request = AuthorizeCardRequest(kind: .sale, amount: 1, currency: .eur, entryMode: .chip, cvm: .notRequired)
        #expect(Mirror(reflecting: request).children.count == AuthorizeCardRequest.handEncodedFieldCount)
    }
}

/// The gateway reads the usual card authorization request by hand: the same value or the
/// same error as `JSONDecoder`.
@Suite struct AuthorizeCardRequestDecodingTests {
    static func outcome(_ decode: () throws -> AuthorizeCardRequest) -> String {
        do { return "\(try decode())" } catch { return "error: \(error)" }
    }

    static func expectSameAnswer(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let data = Data(text.utf8)
        let reference = outcome { try GatewayJSON.makeDecoder().decode(AuthorizeCardRequest.self, from: data) }
        #expect(outcome { try AuthorizeCardRequest.decodeGatewayJSON(data) } == reference, "\(text)",
            sourceLocation: sourceLocation)
    }

    @Test func theSDKsRequestsAreReadByHand() throws {
        let full = AuthorizeCardRequest(
            kind: .authorization, amount: 12_34, currency: .usd, emvData: "9F2608AA", encryptedCardData: "00FF",
            ksn: "FFFF9876543210E00001", maskedPAN: "476173******0119", entryMode: .chip, cvm: .pin,
            cardholderPresent: false, customerReference: "ref \"1\"", externalID: "ext/1", statementDescriptor: "SHOP",
            statementDescriptorSuffix: "42", duplicateCheck: false, allowPartialApproval: true,
            captureMode: .authUntilCapture)
        let minimal = AuthorizeCardRequest(kind: .sale, amount: 1, currency: .eur, entryMode: .contactless, cvm: .notRequired)
        for request in [full, minimal] {
            #expect(try AuthorizeCardRequest.handDecoded(try request.gatewayJSON()) == request)
            Self.expectSameAnswer(String(decoding: try request.gatewayJSON(), as: UTF8.self))
        }
        // Omitted flags take their defaults, explicit nulls too.
        let defaults = try AuthorizeCardRequest.handDecoded(Data(
            #"{"kind":"sale","amount":5,"currency":"EUR","entryMode":"chip","cvm":"pin","duplicateCheck":null,"basket":null}"#.utf8))
        #expect(defaults.cardholderPresent && defaults.duplicateCheck && !defaults.allowPartialApproval)
        #expect(defaults.captureMode == .completedSale)
    }

    @Test func everythingElseGetsJSONDecodersAnswer() throws {
        let base = String(decoding: try AuthorizeCardRequest(
            kind: .sale, amount: 100, currency: .eur, emvData: "9F02", entryMode: .chip, cvm: .pin).gatewayJSON(),
            as: UTF8.self)
        for (old, new) in [
            ("\"amount\":100", "\"amount\":100.0"), ("\"amount\":100", "\"amount\":\"100\""),
            ("\"amount\":100", "\"amount\":null"), ("\"amount\":100,", ""), ("\"kind\":\"sale\"", "\"kind\":\"gift\""),
            ("\"currency\":\"EUR\"", "\"currency\":\"EURO\""), ("\"cvm\":\"pin\"", "\"cvm\":7"),
            ("\"emvData\":\"9F02\"", "\"emvData\":\"9F\\u0030\""), ("\"emvData\":\"9F02\"", "\"emvData\":\"9F€\""),
            ("\"duplicateCheck\":true", "\"duplicateCheck\":\"yes\""),
            ("{", "{\"installments\":{\"count\":3},"), ("{", "{\"installments\":{\"count\":1},"),
            ("{", "{\"basket\":{\"items\":[]},"), ("{", "{\"basket\":7,"), ("{", "{\"extra\":[1,2,{}],"),
            ("{", "{\"kind\":\"sale\","), ("}", "}}"), ("}", ""), ("\"", "'"),
        ] {
            Self.expectSameAnswer(base.replacingOccurrences(of: old, with: new))
        }
        for text in ["", "{}", "[]", "null", base + " ", " \n" + base] { Self.expectSameAnswer(text) }
        var generator = SystemRandomNumberGenerator()
        var bytes = Array(base.utf8)
        for _ in 0..<300 {
            bytes = Array(base.utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            Self.expectSameAnswer(String(decoding: bytes, as: UTF8.self))
        }
    }
}
