import Foundation

/// A payment's outcome as Handpoint's SDK describes it in its transaction-details dictionary
/// (the `xml` of a `FinancialTransactionResponse`): the same keys, typed, built from a
/// ``PaymentResult`` and what the result does not hold (the reader, a gratuity, the original
/// of a void or refund). ``dictionary`` and ``xml`` give it back in the seed's shape for an
/// app or back office that reads Handpoint's fields.
///
/// ```swift
/// let details = TransactionDetails(result, reader: try await terminal.reader.info())
/// upload(details.xml)
/// ```
public struct TransactionDetails: Sendable, Hashable {
    /// The operation (`TransactionType`).
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// None that the seed names (an authorization, a capture).
        case undefined = "UNDEFINED"
        /// A sale.
        case sale = "SALE"
        /// The void of a sale.
        case voidSale = "VOID_SALE"
        /// A refund.
        case refund = "REFUND"
        /// The void of a refund.
        case voidRefund = "VOID_REFUND"
        /// A sale cancelled before it completed.
        case cancelSale = "CANCEL_SALE"
        /// A refund cancelled before it completed.
        case cancelRefund = "CANCEL_REFUND"
    }

    /// The result (`FinancialStatus`).
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Unknown.
        case undefined = "UNDEFINED"
        /// Approved (online or, stored to forward, offline).
        case approved = "APPROVED"
        /// Declined by the issuer or the card.
        case declined = "DECLINED"
        /// Done, for an operation that is neither approved nor declined.
        case processed = "PROCESSED"
        /// An error ended it.
        case failed = "FAILED"
        /// Cancelled by the cardholder, the merchant or a timeout.
        case cancelled = "CANCELLED"
    }

    /// How the cardholder was verified (`CVM`).
    public enum Verification: String, Sendable, Hashable, CaseIterable {
        /// Not known.
        case undefined = "UNDEFINED"
        /// A signature.
        case signature = "SIGNATURE"
        /// A PIN.
        case pin = "PIN"
        /// A PIN and a signature.
        case pinAndSignature = "PIN_SIGNATURE"
        /// Verification failed.
        case failed = "FAILED"
        /// None was needed.
        case notRequired = "NOT_REQUIRED"
    }

    /// How the card was read (`CardEntryType`).
    public enum EntryType: String, Sendable, Hashable, CaseIterable {
        /// Not known (or a tap, which the seed's list does not name).
        case undefined = "UNDEFINED"
        /// The magnetic stripe.
        case magstripe = "MSR"
        /// The chip.
        case chip = "ICC"
        /// Card not present (keyed).
        case cardNotPresent = "CNP"
    }

    /// A readable line for the outcome (`StatusMessage`), such as `AUTH CODE 123456`.
    public var statusMessage: String
    /// `TransactionType`.
    public var operation: Operation
    /// `FinancialStatus`.
    public var outcome: Outcome
    /// What the POS asked for, minor units (`RequestedAmount`).
    public var requestedAmount: Int64
    /// The cardholder's tip, minor units (`GratuityAmount`); nil without one.
    public var gratuityAmount: Int64?
    /// The tip in hundredths of a percent of the requested amount (`GratuityPercentage`,
    /// 1250 for 12.50 %); nil without a tip.
    public var gratuityBasisPoints: Int64?
    /// Requested amount plus tip, minor units (`TotalAmount`).
    public var totalAmount: Int64
    /// `Currency`.
    public var currency: Currency
    /// The terminal's own reference of the attempt (`TransactionID`): its idempotency key.
    public var transactionID: String
    /// The gateway's reference (`EFTTransactionID`), when it recorded the payment.
    public var eftTransactionID: String?
    /// The reference of the payment a void or refund undoes (`OriginalEFTTransactionID`).
    public var originalEFTTransactionID: String?
    /// When it happened (`EFTTimestamp`, written `YYYYMMDDHHmmSS` in UTC).
    public var eftTimestamp: Date
    /// The issuer's approval code (`AuthorisationCode`).
    public var authorisationCode: String?
    /// `CVM`.
    public var verification: Verification
    /// `CardEntryType`.
    public var entryType: EntryType
    /// The card scheme's name (`CardSchemeName`), such as `visa`.
    public var cardSchemeName: String?
    /// The card application's identifier (`CardTypeId`): the AID the chip chose, which names
    /// the scheme and product.
    public var cardTypeID: String?
    /// The reader: serial number, application, battery (`SerialNumber`, `ApplicationName`,
    /// `ApplicationVersion`, `BatteryStatus`, `BatterymV`, `BatteryCharging`, `ExternalPower`).
    public var reader: DeviceInfo?
    /// Why it failed (`ErrorMessage`).
    public var errorMessage: String?
    /// Whether the outcome was recovered after its answer was lost (`RecoveredTransaction`,
    /// written only when true).
    public var recoveredTransaction: Bool

    /// The details of `result`.
    ///
    /// - Parameters:
    ///   - reader: the reader that read the card, for its serial number, software and battery.
    ///   - gratuityAmount: the tip the cardholder added on top of the requested amount; by
    ///     default the tip chosen on the reader (``PaymentResult/tipAmount``), nil without one.
    ///   - originalTransactionID: for a void or refund, the payment it undoes.
    public init(
        _ result: PaymentResult, reader: DeviceInfo? = nil, gratuityAmount: Int64? = nil,
        originalTransactionID: TransactionID? = nil
    ) {
        operation = Self.operation(result)
        outcome = Self.outcome(result.status)
        statusMessage = Self.statusMessage(result, operation: operation)
        requestedAmount = result.requestedAmount
        let readerTip = gratuityAmount == nil && result.tipAmount > 0
        let gratuityAmount = gratuityAmount ?? (readerTip ? result.tipAmount : nil)
        self.gratuityAmount = gratuityAmount
        gratuityBasisPoints = gratuityAmount.flatMap { tip in
            // The percentage the cardholder picked, as the reader offered it; else the tip's share.
            if readerTip, let percentage = result.tipPercentage { return Int64(percentage) * 100 }
            return result.requestedAmount > 0
                ? (tip * 10_000 + result.requestedAmount / 2) / result.requestedAmount : nil
        }
        totalAmount = result.requestedAmount + (gratuityAmount ?? 0)
        currency = result.currency
        transactionID = result.idempotencyKey.rawValue
        eftTransactionID = result.transactionID?.rawValue
        originalEFTTransactionID = originalTransactionID?.rawValue
        eftTimestamp = result.date
        authorisationCode = result.authorizationCode
        verification = Self.verification(result.cvm)
        entryType = Self.entryType(result.entryMode)
        cardSchemeName = result.scheme
        cardTypeID = result.emv?.aid
        self.reader = reader
        errorMessage = result.error?.message
        recoveredTransaction = result.recovered
    }

    static func operation(_ result: PaymentResult) -> Operation {
        let cancelled = result.status == .cancelled
        switch result.kind {
        case .sale, .cash: return cancelled ? .cancelSale : .sale
        case .refund: return cancelled ? .cancelRefund : .refund
        case .saleVoid: return .voidSale
        case .refundVoid: return .voidRefund
        default: return .undefined
        }
    }

    static func outcome(_ status: PaymentStatus) -> Outcome {
        switch status {
        case .approved, .approvedOffline: .approved
        case .declined: .declined
        case .cancelled: .cancelled
        case .failed: .failed
        // Received, decided later: done for now, neither approved nor declined.
        case .pending: .processed
        }
    }

    /// The seed's status texts: the approval code of a sale, `REFUND ACCEPTED`,
    /// `REVERSAL ACCEPTED`, `TRANSACTION VOID` for a cancel.
    static func statusMessage(_ result: PaymentResult, operation: Operation) -> String {
        switch result.status {
        case .approved, .approvedOffline:
            switch operation {
            case .refund: return "REFUND ACCEPTED"
            case .voidSale, .voidRefund: return "REVERSAL ACCEPTED"
            default: return result.authorizationCode.map { "AUTH CODE \($0)" } ?? ""
            }
        case .declined: return "DECLINED"
        case .cancelled: return "TRANSACTION VOID"
        case .failed: return "Processing error"
        case .pending: return "REFUND RECEIVED"
        }
    }

    static func verification(_ cvm: CardholderVerification?) -> Verification {
        switch cvm {
        case .signature: .signature
        case .pin, .onDevice: .pin
        case .pinAndSignature: .pinAndSignature
        case .failed: .failed
        case .notRequired: .notRequired
        case nil: .undefined
        }
    }

    static func entryType(_ mode: CardEntryMode?) -> EntryType {
        switch mode {
        case .magstripe, .magstripeFallback: .magstripe
        case .chip: .chip
        case .manual, .cardNotPresent: .cardNotPresent
        case .contactless, nil: .undefined
        }
    }
}
