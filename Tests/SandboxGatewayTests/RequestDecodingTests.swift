import Foundation
import GatewayAPI
import Hummingbird
import SandboxGateway
import Testing

@Suite("A refused body names the field and what was expected there", .timeLimit(.minutes(2)))
struct RequestDecodingTests {
    /// Sends `body` to `path` and returns status, code and message of the error.
    func refusal(
        _ harness: GatewayHarness, _ path: String, _ body: String, token: String
    ) async throws -> (status: Int, code: Int?, message: String?) {
        let reply = try await harness.send(
            .post, path, body: Data(body.utf8), token: token, idempotencyKey: "key-\(UUID().uuidString)")
        return (reply.status, reply.error?.code, reply.error?.message)
    }

    @Test func statisticsDatesAreReportedByField() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let from = #""from": "2026-01-01T00:00:00Z", "grouping": "day""#
            let cases: [(String, Int, String)] = [
                (#"{\#(from), "to": 6}"#, 4000, "Wrong type at 'to': expected a date string."),
                (
                    #"{\#(from), "to": "yesterday"}"#, 4001,
                    "Invalid value at 'to': expected an RFC 3339 date-time with fields in range, such as 2026-11-23T09:00:00Z."
                ),
                // Foundation's parser would roll minute 99 into the next hour and report on a period
                // nobody asked for.
                (
                    #"{\#(from), "to": "2026-01-01T12:99:00Z"}"#, 4001,
                    "Invalid value at 'to': expected an RFC 3339 date-time with fields in range, such as 2026-11-23T09:00:00Z."
                ),
                (
                    #"{\#(from), "to": "2026-02-01T00:00:00Z", "currency": "eur"}"#, 4001,
                    "Invalid value at 'currency': not an active ISO 4217 currency code in upper case (\"EUR\")."
                ),
                (#"{\#(from), "to": null}"#, 4000, "null is not allowed at 'to': expected a date string."),
                (#"{\#(from)}"#, 4000, "Missing field 'to'."),
                (
                    #"{"from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:00Z", "grouping": "days"}"#,
                    4001,
                    "Invalid value at 'grouping': not one of the allowed values."
                ),
            ]
            for (body, code, message) in cases {
                let answer = try await refusal(harness, GatewayPaths.statistics, body, token: token)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.code == code, "\(body)")
                #expect(answer.message == message, "\(body)")
            }
        }
    }

    @Test func numbersAndShapesAreReportedByField() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let cases: [(String, String, String)] = [
                (
                    GatewayPaths.searchTransactions, #"{"page": "one"}"#,
                    "Wrong type at 'page': expected a whole number."
                ),
                (
                    GatewayPaths.searchTransactions, #"{"page": 1.5}"#,
                    "Wrong type at 'page': expected a whole number of at most 64 bits."
                ),
                (
                    GatewayPaths.searchTransactions, #"{"pageSize": 30000000000000000000000}"#,
                    "Wrong type at 'pageSize': expected a whole number of at most 64 bits."
                ),
                (GatewayPaths.searchTransactions, "[1]", "Wrong type at the body: expected an object."),
                (
                    GatewayPaths.cashPayment,
                    #"{"kind": "sale", "amount": 100, "currency": "EUR", "basket": {"items": [{"name": "Tea", "quantity": true, "unitPrice": 100, "taxBasisPoints": 0}]}}"#,
                    "Wrong type at 'basket.items[0].quantity': expected a whole number."
                ),
                (
                    GatewayPaths.cashPayment,
                    #"{"kind": "sale", "amount": 100, "currency": "EUR", "basket": {"items": [{"quantity": 1, "unitPrice": 100, "taxBasisPoints": 0}]}}"#,
                    "Missing field 'basket.items[0].name'."
                ),
            ]
            for (path, body, message) in cases {
                let answer = try await refusal(harness, path, body, token: token)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.code == GatewayErrorCode.malformedJSON, "\(body)")
                #expect(answer.message == message, "\(body)")
            }
        }
    }

    @Test func onlyBrokenSyntaxIsInvalidJSON() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for body in [#"{"page": "#, "not json"] {
                let answer = try await refusal(harness, GatewayPaths.searchTransactions, body, token: token)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.message == "The body is not valid JSON.", "\(body)")
            }
        }
    }

    @Test func datesStillDecode() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let reply = try await harness.send(
                .post, GatewayPaths.searchTransactions,
                body: Data(#"{"from": "2026-01-01T00:00:00Z", "to": "2026-11-23T09:00:00Z"}"#.utf8),
                token: token)
            #expect(reply.status == 200)
        }
    }
}
