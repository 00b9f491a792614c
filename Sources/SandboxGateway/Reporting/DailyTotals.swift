import Foundation
import GRDB
import MPOSCore

/// Each merchant's statistics figures per UTC day, currency and status, kept by the database
/// as the ledger changes, so that statistics over months or years read a few rows per day
/// instead of every transaction (docs/performance.md, "Reports at a million").
///
/// Triggers on `payment_transaction` keep it: a new row adds its signed amount to its day's
/// figures; a row whose status or amounts change (a refund, void, capture, tip) leaves its old
/// figures and joins its new ones, and the minimum and maximum of the figures it left are read
/// again from that day's rows (through the covering time index), since a subtraction cannot
/// say what the next smallest amount is. A day's figures for a status with no rows left are
/// deleted. The amount and the kinds counted are ``StatisticsByDayQuery``'s.
enum DailyTotals {
    /// The signed amount of a row, as the statistics count it, for `row` (`NEW` or `OLD`).
    static func amount(_ row: String) -> String {
        """
        ((CASE WHEN \(row).kind = 'refund' THEN -1 ELSE 1 END)
          * (CASE WHEN \(row).status IN ('approved', 'partiallyApproved', 'refunded', 'reversed')
               THEN \(row).amount_captured + \(row).amount_tip ELSE \(row).amount_requested END))
        """
    }

    /// The day's figures key of `row`.
    static func key(_ row: String) -> String {
        """
        merchant_id = \(row).merchant_id AND currency = \(row).currency
          AND day = substr(\(row).created_at, 1, 10) AND status = \(row).status
        """
    }

    /// Adds `row` to its day's figures.
    static func add(_ row: String) -> String {
        """
        INSERT INTO payment_daily_total (merchant_id, currency, day, status, n, total, low, high)
        VALUES (\(row).merchant_id, \(row).currency, substr(\(row).created_at, 1, 10), \(row).status, 1,
          \(amount(row)), \(amount(row)), \(amount(row)))
        ON CONFLICT (merchant_id, currency, day, status) DO UPDATE SET
          n = n + 1, total = total + excluded.total, low = min(low, excluded.low), high = max(high, excluded.high);
        """
    }

    /// Takes `OLD` out of its day's figures, reading the extremes again from the rows left.
    static var removeOld: String {
        let rows = """
            FROM payment_transaction
            WHERE merchant_id = OLD.merchant_id AND currency = OLD.currency AND status = OLD.status
              AND created_at >= substr(OLD.created_at, 1, 10)
              AND created_at < date(substr(OLD.created_at, 1, 10), '+1 day')
              AND kind IN (\(StatisticsByDayQuery.kinds))
            """
        let each = amount("payment_transaction").replacingOccurrences(of: "payment_transaction.", with: "")
        return """
            UPDATE payment_daily_total SET n = n - 1, total = total - \(amount("OLD")) WHERE \(key("OLD"));
            DELETE FROM payment_daily_total WHERE \(key("OLD")) AND n = 0;
            UPDATE payment_daily_total SET
              low = (SELECT MIN(\(each)) \(rows)), high = (SELECT MAX(\(each)) \(rows))
            WHERE \(key("OLD"));
            """
    }

    /// The table, its triggers and its figures for the rows already in the ledger
    /// (migration `reporting-3-daily-totals`).
    @Sendable static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_daily_total (
                  merchant_id TEXT NOT NULL, currency TEXT NOT NULL, day TEXT NOT NULL, status TEXT NOT NULL,
                  n INTEGER NOT NULL, total INTEGER NOT NULL, low INTEGER NOT NULL, high INTEGER NOT NULL,
                  PRIMARY KEY (merchant_id, currency, day, status)
                ) WITHOUT ROWID;
                INSERT INTO payment_daily_total (merchant_id, currency, day, status, n, total, low, high)
                SELECT merchant_id, currency, substr(created_at, 1, 10), status, COUNT(*), SUM(a), MIN(a), MAX(a)
                FROM (SELECT *, \(amount("payment_transaction")) AS a FROM payment_transaction
                      WHERE kind IN (\(StatisticsByDayQuery.kinds)))
                GROUP BY merchant_id, currency, substr(created_at, 1, 10), status;
                CREATE TRIGGER payment_daily_total_insert AFTER INSERT ON payment_transaction
                WHEN NEW.kind IN (\(StatisticsByDayQuery.kinds))
                BEGIN
                  \(add("NEW"))
                END;
                CREATE TRIGGER payment_daily_total_update
                AFTER UPDATE OF status, amount_requested, amount_captured, amount_tip ON payment_transaction
                WHEN OLD.kind IN (\(StatisticsByDayQuery.kinds))
                  AND (OLD.status IS NOT NEW.status OR \(amount("OLD")) IS NOT \(amount("NEW")))
                BEGIN
                  \(removeOld)
                  \(add("NEW"))
                END;
                CREATE TRIGGER payment_daily_total_delete AFTER DELETE ON payment_transaction
                WHEN OLD.kind IN (\(StatisticsByDayQuery.kinds))
                BEGIN
                  \(removeOld)
                END;
                """)
    }
}
