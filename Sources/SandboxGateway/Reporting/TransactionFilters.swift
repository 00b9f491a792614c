import GRDB
import MPOSCore

/// The narrowing filters of a transaction search beside its status and free text: the
/// transaction kind, an amount range in minor units and the card's last four digits. Each is
/// validated on creation, so a search never runs with a value the gateway would misread.
public struct TransactionFilters: Sendable, Hashable {
    /// Only transactions of this kind.
    public var kind: TransactionKind?
    /// Requested amount at least this many minor units.
    public var minimumAmount: Int64?
    /// Requested amount at most this many minor units.
    public var maximumAmount: Int64?
    /// The card number's last four digits.
    public var cardLastFour: String?

    /// Validates and creates filters; `nil` leaves a filter off.
    ///
    /// - Throws: ``PaymentRuleViolation/Reason/invalidField`` for an unknown kind, a negative
    ///   amount, a minimum above the maximum, or last four that are not exactly 4 digits.
    public init(
        kind: String? = nil, minimumAmount: Int64? = nil, maximumAmount: Int64? = nil, cardLastFour: String? = nil
    ) throws(PaymentRuleViolation) {
        if let kind {
            guard let known = TransactionKind(rawValue: kind) else {
                throw PaymentRuleViolation(
                    .invalidField, "kind must be one of \(TransactionKind.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            self.kind = known
        }
        for amount in [minimumAmount, maximumAmount] {
            if let amount, amount < 0 {
                throw PaymentRuleViolation(.invalidField, "Amounts are minor units, 0 or more.")
            }
        }
        if let minimumAmount, let maximumAmount, minimumAmount > maximumAmount {
            throw PaymentRuleViolation(.invalidField, "The minimum amount must not exceed the maximum.")
        }
        if let cardLastFour {
            guard cardLastFour.utf8.count == 4, cardLastFour.utf8.allSatisfy({ (48...57).contains($0) }) else {
                throw PaymentRuleViolation(.invalidField, "cardLastFour must be exactly 4 digits.")
            }
        }
        self.minimumAmount = minimumAmount
        self.maximumAmount = maximumAmount
        self.cardLastFour = cardLastFour
    }

    /// The `AND`-ed SQL clauses over `payment_transaction` and their arguments; empty when no
    /// filter is set.
    func clauses() -> [(sql: String, argument: any DatabaseValueConvertible)] {
        var out: [(sql: String, argument: any DatabaseValueConvertible)] = []
        if let kind { out.append(("kind = ?", kind.rawValue)) }
        if let minimumAmount { out.append(("amount_requested >= ?", minimumAmount)) }
        if let maximumAmount { out.append(("amount_requested <= ?", maximumAmount)) }
        // Masked numbers keep the last four digits at the end; four digits hold no wildcard,
        // and a suffix pattern reads the same on SQLite and PostgreSQL.
        if let cardLastFour { out.append(("masked_pan LIKE ?", "%" + cardLastFour)) }
        return out
    }
}

extension TransactionFilters {
    /// No filter.
    public static let none = TransactionFilters(unchecked: ())

    private init(unchecked: Void) {}
}
