import Foundation
import GatewayAPI
import MPOSCore
import SandboxCards
import Testing

@testable import SandboxGateway

/// A tip the cardholder chose on the reader (`tipAmount` of `POST /v1/payments/card`): the
/// issuer verifies the cryptogram against amount + tip, and the ledger keeps the two apart
/// as a tip adjustment does (`amount_approved` the amount, `amount_tip` the tip).
@Suite(.timeLimit(.minutes(2)))
struct ReaderTipTests {
    /// A sale of `amount` whose card authorised `authorised` (the kernel's 9F02), sending `tip`.
    static func tippedSale(
        amount: Int64, authorised: Int64, tip: Int64?, kind: CardPaymentKind = .sale, card: String = "visa-credit",
        allowPartial: Bool = false
    ) throws -> AuthorizeCardRequest {
        var request = try PaymentHTTPTests.authorize(
            SimulatedTerminal.card(card), amount: authorised, kind: kind, allowPartial: allowPartial)
        request.parameters.amount = amount
        request.tipAmount = tip
        return request
    }

    @Test func theCryptogramIsVerifiedAgainstTheTotalAndTheTipIsStoredApart() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            let reply = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, try Self.tippedSale(amount: 42_00, authorised: 48_30, tip: 6_30),
                token: token)
            #expect(reply.status == 200)
            let sale = try reply.decode(Transaction.self)
            #expect(sale.status == .approved && sale.responseCode == "00")
            #expect(sale.requestedAmount == 42_00 && sale.approvedAmount == 42_00)
            #expect(sale.tipAmount == 6_30 && sale.totalAmount == 48_30)

            // A card that authorised 48.30 sent without the tip: 9F02 differs from the amount (42.00).
            var withoutTip = try Self.tippedSale(amount: 42_00, authorised: 48_30, tip: nil)
            withoutTip.parameters.duplicateCheck = false
            let untipped = try await PaymentHTTPTests.post(
                harness, GatewayPaths.authorizeCard, withoutTip, token: token)
            #expect(untipped.status == 200)
            let declined = try untipped.decode(Transaction.self)
            #expect(declined.status == .declined && declined.responseCode == "13" && declined.tipAmount == 0)

            // The tip is refunded with the sale.
            let refund = try await harness.send(
                .post, GatewayPaths.transaction(GatewayPaths.refund, id: sale.id.rawValue),
                json: RefundRequest(amount: nil), token: token, idempotencyKey: PaymentHTTPTests.key())
            #expect(refund.status == 200)
            #expect(try refund.decode(Transaction.self).approvedAmount == 48_30)
        }
    }

    @Test func aBadTipOrATipOnAnotherKindIsRefused() async throws {
        try await GatewayHarness.with { harness in
            let token = try await harness.login()
            for (request, field) in [
                (try Self.tippedSale(amount: 10_00, authorised: 9_00, tip: -1_00), "tipAmount must be zero or more"),
                (
                    try Self.tippedSale(amount: 999_999_999_000, authorised: 10_00, tip: 1_000),
                    "at most 999999999999"
                ),
                (
                    try Self.tippedSale(amount: 10_00, authorised: 11_00, tip: 1_00, kind: .refundUnreferenced),
                    "Only a sale"
                ),
                (try Self.tippedSale(amount: 10_00, authorised: 11_00, tip: 1_00, kind: .authorization), "Only a sale"),
            ] {
                let reply = try await PaymentHTTPTests.post(harness, GatewayPaths.authorizeCard, request, token: token)
                #expect(reply.status == 400, "\(field)")
                #expect(reply.error?.code == 4001)
                #expect(reply.error?.message.contains(field) == true, "\(reply.error?.message ?? "")")
            }
        }
    }

    @Test func aPartialApprovalCoversTheAmountFirstThenTheTip() {
        var row = LedgerTransaction(
            id: "tx_partial", merchantId: "m", kind: .sale, status: .declined, amount: 100_00, currency: .eur,
            now: Date(timeIntervalSince1970: 0))
        row.amountTip = 15_00
        let answer = IssuerAnswer(
            approved: true, approvedAmount: 110_00, responseCode: "10", authorizationCode: "PART01",
            message: "Partially approved", issuerAuthenticationData: nil)
        PaymentService.apply(answer, to: &row, kind: .sale, allowPartial: true)
        #expect(row.status == .partiallyApproved && row.amountApproved == 100_00 && row.amountTip == 10_00)
        #expect(row.amountCaptured == 100_00)

        var full = LedgerTransaction(
            id: "tx_full", merchantId: "m", kind: .sale, status: .declined, amount: 100_00, currency: .eur,
            now: Date(timeIntervalSince1970: 0))
        full.amountTip = 15_00
        PaymentService.apply(
            IssuerAnswer(approved: true, approvedAmount: nil, responseCode: "00", authorizationCode: "FULL01", message: "Approved", issuerAuthenticationData: nil),
            to: &full, kind: .sale, allowPartial: false)
        #expect(full.status == .approved && full.amountApproved == 100_00 && full.amountTip == 15_00)

        var declined = LedgerTransaction(
            id: "tx_declined", merchantId: "m", kind: .sale, status: .declined, amount: 100_00, currency: .eur,
            now: Date(timeIntervalSince1970: 0))
        declined.amountTip = 15_00
        PaymentService.apply(
            IssuerAnswer(approved: false, approvedAmount: nil, responseCode: "51", authorizationCode: nil, message: "No", issuerAuthenticationData: nil),
            to: &declined, kind: .sale, allowPartial: false)
        #expect(declined.status == .declined && declined.amountApproved == 0 && declined.amountTip == 0)
    }

    @Test func theRefundableRemainderIncludesTheTip() throws {
        var original = PaymentRules.Original(
            kind: .sale, status: .approved, approvedAmount: 42_00, capturedAmount: 42_00, refundedAmount: 0,
            batchOpen: true)
        original.tipAmount = 6_30
        #expect(try PaymentRules.refundAmount(original: original, requested: nil) == 48_30)
        original.refundedAmount = 42_00
        #expect(try PaymentRules.refundAmount(original: original, requested: nil) == 6_30)
        #expect(throws: PaymentRuleViolation.self) { try PaymentRules.refundAmount(original: original, requested: 6_31) }
    }

    @Test func theReaderTipRule() throws {
        #expect(try PaymentRules.readerTip(nil, amount: 10_00, kind: .refund) == 0)
        #expect(try PaymentRules.readerTip(0, amount: 10_00, kind: .sale) == 0)
        #expect(try PaymentRules.readerTip(1_50, amount: 10_00, kind: .sale) == 1_50)
        #expect(throws: PaymentRuleViolation.self) { try PaymentRules.readerTip(-1, amount: 10_00, kind: .sale) }
        #expect(throws: PaymentRuleViolation.self) {
            try PaymentRules.readerTip(2, amount: PaymentRules.maximumAmount - 1, kind: .sale)
        }
        #expect(throws: PaymentRuleViolation.self) { try PaymentRules.readerTip(1, amount: 10_00, kind: .preAuthorization) }
    }
}
