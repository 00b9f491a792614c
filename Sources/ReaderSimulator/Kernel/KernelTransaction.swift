import Foundation
import MPOSCore
import SandboxCards

/// One transaction as the kernel receives it from the device layer.
public struct KernelTransaction: Sendable, Hashable {
    /// What the transaction does; sets Transaction Type (9C).
    public var kind: TransactionKind
    /// Amount, Authorised (9F02), minor units.
    public var amount: Int64
    /// Transaction currency (5F2A).
    public var currency: Currency
    /// Transaction date (9A), taken in UTC.
    public var date: Date
    /// How the card is presented: chip, contactless, magstripe or magstripe fallback.
    public var entryMode: CardEntryMode
    /// Unpredictable Number (9F37), 4 bytes; random unless a test fixes it.
    public var unpredictableNumber: [UInt8]

    /// Creates a transaction.
    public init(
        kind: TransactionKind = .sale, amount: Int64, currency: Currency = .eur, date: Date = Date(),
        entryMode: CardEntryMode = .chip, unpredictableNumber: [UInt8]? = nil
    ) {
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.date = date
        self.entryMode = entryMode
        self.unpredictableNumber = unpredictableNumber ?? (0..<4).map { _ in UInt8.random(in: 0...255) }
    }

    /// Transaction Type (9C): `00` goods and services, `01` cash, `20` refund.
    var transactionType: UInt8 {
        switch kind {
        case .refund, .refundVoid: 0x20
        case .cash: 0x01
        default: 0x00
        }
    }

    /// 9A, `YYMMDD` BCD, UTC.
    var dateBCD: [UInt8] {
        let fields = UTCDate(date)
        return [fields.year % 100, fields.month, fields.day].map { UInt8((($0 / 10) << 4) | ($0 % 10)) }
    }

    /// The UTC year and month of ``date``.
    var yearMonth: (year: Int, month: Int) {
        let fields = UTCDate(date)
        return (Int(fields.year), Int(fields.month))
    }
}
