import Foundation
import MPOSCore
import Testing

@testable import SandboxGateway

@Suite(.timeLimit(.minutes(2))) struct PaymentRulesTests {
    private func reason(_ body: () throws -> Void) -> PaymentRuleViolation.Reason? {
        do {
            try body()
            return nil
        } catch let violation as PaymentRuleViolation {
            return violation.reason
        } catch { return nil }
    }

    @Test func amountsMustBePositive() {
        #expect(reason { try PaymentRules.validateAmount(1) } == nil)
        #expect(reason { try PaymentRules.validateAmount(0) } == .invalidAmount)
        #expect(reason { try PaymentRules.validateAmount(-5) } == .invalidAmount)
        #expect(reason { try PaymentRules.validateAmount(PaymentRules.maximumAmount + 1) } == .invalidAmount)
    }

    @Test func currenciesMustBeKnownAndCarryMinorUnits() throws {
        #expect(try PaymentRules.currency(code: "eur") == .eur)
        #expect(reason { _ = try PaymentRules.currency(code: "XAU") } == .unknownCurrency)
        #expect(reason { _ = try PaymentRules.currency(code: "ABC") } == .unknownCurrency)
        #expect(reason { _ = try PaymentRules.currency(code: "") } == .unknownCurrency)
    }

    @Test func descriptorRules() throws {
        #expect(try PaymentRules.statementDescriptor(nil, suffix: nil) == nil)
        #expect(try PaymentRules.statementDescriptor("Joes Diner", suffix: nil) == "JOES DINER")
        #expect(try PaymentRules.statementDescriptor("Café Bar", suffix: nil) == "CAF BAR")
        #expect(try PaymentRules.statementDescriptor("Shop", suffix: "Order 12") == "SHOP* ORDER 12")
        #expect(
            try PaymentRules.statementDescriptor(String(repeating: "A", count: 22), suffix: nil)?.count == 22)
        #expect(
            reason {
                _ = try PaymentRules.statementDescriptor(String(repeating: "A", count: 23), suffix: nil)
            } == .invalidDescriptor)
        // 14 + "* " + 7 = 23 characters with the suffix.
        #expect(
            reason { _ = try PaymentRules.statementDescriptor("ABCDEFGHIJKLMN", suffix: "1234567") }
                == .invalidDescriptor)
        #expect(try PaymentRules.statementDescriptor("ABCDEFGHIJKLMN", suffix: "123456")?.count == 22)
        #expect(
            reason { _ = try PaymentRules.statementDescriptor("12345", suffix: nil) } == .invalidDescriptor)
        for bad in ["<b>", "A>", "say \"hi\"", "Joe's"] {
            #expect(
                reason { _ = try PaymentRules.statementDescriptor(bad, suffix: nil) } == .invalidDescriptor)
        }
        #expect(
            reason { _ = try PaymentRules.statementDescriptor("Shop", suffix: "<x>") } == .invalidDescriptor)
        #expect(reason { _ = try PaymentRules.statementDescriptor(nil, suffix: "X") } == .invalidDescriptor)
        #expect(reason { _ = try PaymentRules.statementDescriptor("   ", suffix: nil) } == .invalidDescriptor)
    }

    @Test func externalIDLength() {
        #expect(reason { try PaymentRules.validateExternalID(nil) } == nil)
        #expect(reason { try PaymentRules.validateExternalID(String(repeating: "x", count: 50)) } == nil)
        #expect(
            reason { try PaymentRules.validateExternalID(String(repeating: "x", count: 51)) }
                == .invalidExternalID)
        #expect(reason { try PaymentRules.validateExternalID("") } == .invalidExternalID)
    }

    @Test func duplicateWithinFiveMinutes() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let earlier = PaymentRules.RecentPayment(
            cardFingerprint: "f1", amount: 1000, currency: "EUR", createdAt: now.addingTimeInterval(-299),
            status: .approved)
        func check(_ recent: [PaymentRules.RecentPayment], enabled: Bool = true, amount: Int64 = 1000)
            -> PaymentRuleViolation.Reason?
        {
            reason {
                try PaymentRules.checkDuplicate(
                    fingerprint: "f1", amount: amount, currency: "EUR", now: now, enabled: enabled,
                    recent: recent)
            }
        }
        #expect(check([earlier]) == .duplicateTransaction)
        #expect(check([earlier], enabled: false) == nil)
        #expect(check([earlier], amount: 1001) == nil)
        var old = earlier
        old.createdAt = now.addingTimeInterval(-301)
        #expect(check([old]) == nil)
        var declined = earlier
        declined.status = .declined
        #expect(check([declined]) == nil)
        var otherCard = earlier
        otherCard.cardFingerprint = "f2"
        #expect(check([otherCard]) == nil)
        var otherCurrency = earlier
        otherCurrency.currency = "USD"
        #expect(check([otherCurrency]) == nil)
    }

    private func original(
        _ kind: TransactionKind, _ status: FinancialStatus = .approved, approved: Int64 = 1000,
        captured: Int64 = 0,
        refunded: Int64 = 0, batchOpen: Bool = true, tip: Bool = true
    ) -> PaymentRules.Original {
        PaymentRules.Original(
            kind: kind, status: status, approvedAmount: approved, capturedAmount: captured,
            refundedAmount: refunded,
            batchOpen: batchOpen, tipAdjustable: tip)
    }

    @Test func captureFullOrPartialUpToAuthorized() throws {
        #expect(try PaymentRules.captureAmount(original: original(.authorization), requested: nil) == 1000)
        #expect(try PaymentRules.captureAmount(original: original(.preAuthorization), requested: 400) == 400)
        #expect(
            reason { _ = try PaymentRules.captureAmount(original: original(.authorization), requested: 1001) }
                == .captureExceedsAuthorized)
        #expect(
            reason {
                _ = try PaymentRules.captureAmount(
                    original: original(.authorization, captured: 1000), requested: nil)
            } == .notCapturable)
        #expect(
            reason {
                _ = try PaymentRules.captureAmount(original: original(.sale, captured: 1000), requested: nil)
            } == .notCapturable)
        #expect(
            reason {
                _ = try PaymentRules.captureAmount(
                    original: original(.authorization, .declined), requested: nil)
            } == .notCapturable)
        #expect(
            reason { _ = try PaymentRules.captureAmount(original: original(.authorization), requested: 0) }
                == .invalidAmount)
    }

    @Test func refundNeverExceedsCapturedMinusRefunded() throws {
        let sale = original(.sale, captured: 1000, refunded: 300)
        #expect(try PaymentRules.refundAmount(original: sale, requested: nil) == 700)
        #expect(try PaymentRules.refundAmount(original: sale, requested: 700) == 700)
        #expect(
            reason { _ = try PaymentRules.refundAmount(original: sale, requested: 701) }
                == .refundExceedsCaptured)
        #expect(
            reason {
                _ = try PaymentRules.refundAmount(
                    original: original(.sale, .refunded, captured: 1000, refunded: 1000), requested: nil)
            } == .refundExceedsCaptured)
        #expect(
            reason { _ = try PaymentRules.refundAmount(original: original(.authorization), requested: nil) }
                == .refundExceedsCaptured)
        #expect(
            reason { _ = try PaymentRules.refundAmount(original: original(.sale, .declined), requested: nil) }
                == .notRefundable)
        #expect(
            reason {
                _ = try PaymentRules.refundAmount(original: original(.refund, captured: 1000), requested: nil)
            } == .notRefundable)
    }

    @Test func tipOnlyWhileBatchOpen() {
        #expect(
            reason {
                try PaymentRules.checkTipAdjustment(original: original(.sale, captured: 1000), tip: 200)
            } == nil)
        #expect(
            reason {
                try PaymentRules.checkTipAdjustment(
                    original: original(.sale, captured: 1000, batchOpen: false), tip: 200)
            } == .tipAdjustmentClosed)
        #expect(
            reason {
                try PaymentRules.checkTipAdjustment(
                    original: original(.sale, captured: 1000, tip: false), tip: 200)
            } == .tipAdjustmentClosed)
        #expect(
            reason { try PaymentRules.checkTipAdjustment(original: original(.refund), tip: 200) }
                == .tipAdjustmentClosed)
        #expect(
            reason { try PaymentRules.checkTipAdjustment(original: original(.sale), tip: -1) }
                == .invalidAmount)
    }

    @Test func tipRefusalNamesTheLimitBroken() {
        func message(_ tip: Int64) -> String? {
            do {
                try PaymentRules.checkTipAdjustment(original: original(.sale, captured: 1000), tip: tip)
                return nil
            } catch { return error.message }
        }
        #expect(message(PaymentRules.maximumAmount) == nil)
        #expect(
            message(PaymentRules.maximumAmount + 1)
                == "tipAmount must be at most 999999999999 minor units, got 1000000000000.")
        #expect(message(-1) == "tipAmount must be zero or more, got -1.")
    }

    @Test func voidsAndReversals() throws {
        #expect(try PaymentRules.voidKind(original: original(.sale), reversal: false) == .saleVoid)
        #expect(try PaymentRules.voidKind(original: original(.refund), reversal: false) == .refundVoid)
        #expect(
            try PaymentRules.voidKind(original: original(.sale, batchOpen: false), reversal: true)
                == .saleVoid)
        #expect(
            reason {
                _ = try PaymentRules.voidKind(original: original(.sale, batchOpen: false), reversal: false)
            } == .notVoidable)
        #expect(
            reason { _ = try PaymentRules.voidKind(original: original(.sale, .reversed), reversal: false) }
                == .notVoidable)
        #expect(
            reason { _ = try PaymentRules.voidKind(original: original(.saleVoid), reversal: false) }
                == .notVoidable)
        #expect(
            reason {
                _ = try PaymentRules.voidKind(
                    original: original(.sale, captured: 1000, refunded: 10), reversal: false)
            } == .notVoidable)
    }

    /// The Heft seed: a void "only within the same day as the transaction was made"; the Accept
    /// seed: a reversal only "before 24 hours has passed". Reversals of a card that never
    /// completed have no window.
    @Test func aVoidIsTakenOnTheTransactionsOwnDayOnly() throws {
        var sale = original(.sale)
        // 2026-12-07 08:00 UTC.
        let made = Date(timeIntervalSince1970: 1_796_630_400)
        sale.createdAt = made
        #expect(try PaymentRules.voidKind(original: sale, reversal: false, now: made) == .saleVoid)
        #expect(
            try PaymentRules.voidKind(original: sale, reversal: false, now: made.addingTimeInterval(15 * 3_600 + 3_599))
                == .saleVoid)
        // Midnight UTC, 16 hours on: the next day.
        #expect(
            reason { _ = try PaymentRules.voidKind(original: sale, reversal: false, now: made.addingTimeInterval(16 * 3_600)) }
                == .notVoidable)
        #expect(
            reason { _ = try PaymentRules.voidKind(original: sale, reversal: false, now: made.addingTimeInterval(86_400)) }
                == .notVoidable)
        #expect(
            try PaymentRules.voidKind(original: sale, reversal: true, now: made.addingTimeInterval(3 * 86_400))
                == .saleVoid)
    }

    @Test func partialApprovalOnlyWhenAllowed() {
        #expect(
            PaymentRules.outcome(
                requested: 1000, issuerApproved: true, approvedAmount: nil, allowPartial: false)
                == .approved(amount: 1000))
        #expect(
            PaymentRules.outcome(
                requested: 1000, issuerApproved: true, approvedAmount: 600, allowPartial: true)
                == .partiallyApproved(amount: 600))
        #expect(
            PaymentRules.outcome(
                requested: 1000, issuerApproved: true, approvedAmount: 600, allowPartial: false) == .declined)
        #expect(
            PaymentRules.outcome(
                requested: 1000, issuerApproved: false, approvedAmount: nil, allowPartial: true) == .declined)
        #expect(PaymentRules.violationHTTPStatusesAreClientErrors)
    }
}

extension PaymentRules {
    static var violationHTTPStatusesAreClientErrors: Bool {
        PaymentRuleViolation.Reason.allCases.allSatisfy {
            (400..<500).contains(PaymentRuleViolation($0, "").httpStatus)
        }
    }
}
