/// The ledger's triggers on PostgreSQL: PL/pgSQL functions doing what the SQLite trigger
/// bodies of `payment_card_spend` (``LedgerSchema/spendByDay(_:)``) and
/// `payment_daily_total` (``DailyTotals``) do, fired under the same `WHEN` conditions.
/// The SQL expressions they share with SQLite (what a row adds to a card's spend, a row's
/// signed amount, its day's key) come from those types, so the two engines count alike.
enum PostgresLedgerTriggers {
    /// `payment_card_spend`, its two functions and four triggers.
    static var cardSpend: [String] {
        let counts = LedgerSchema.countsTowardsSpend
        let contribution = LedgerSchema.spendContribution
        let day = LedgerSchema.spendDay
        return [
            """
            CREATE TABLE payment_card_spend (
              card_fingerprint TEXT NOT NULL,
              day TEXT NOT NULL,
              spent BIGINT NOT NULL,
              PRIMARY KEY (card_fingerprint, day)
            )
            """,
            function(
                "payment_card_spend_add",
                """
                INSERT INTO payment_card_spend (card_fingerprint, day, spent)
                VALUES (NEW.card_fingerprint, \(day("NEW")), \(contribution("NEW")))
                ON CONFLICT (card_fingerprint, day) DO UPDATE SET spent = payment_card_spend.spent + excluded.spent;
                """),
            function(
                "payment_card_spend_remove",
                """
                UPDATE payment_card_spend SET spent = spent - (\(contribution("OLD")))
                WHERE card_fingerprint = OLD.card_fingerprint AND day = \(day("OLD"));
                """),
            trigger("payment_card_spend_insert", "INSERT", when: counts("NEW"), "payment_card_spend_add"),
            trigger("payment_card_spend_update_old", "UPDATE", when: counts("OLD"), "payment_card_spend_remove"),
            trigger("payment_card_spend_update_new", "UPDATE", when: counts("NEW"), "payment_card_spend_add"),
            trigger("payment_card_spend_delete", "DELETE", when: counts("OLD"), "payment_card_spend_remove"),
        ]
    }

    /// `payment_daily_total`, its three functions and three triggers.
    static var dailyTotals: [String] {
        let kinds = StatisticsByDayQuery.kinds
        let amount = DailyTotals.amount
        return [
            """
            CREATE TABLE payment_daily_total (
              merchant_id TEXT NOT NULL, currency TEXT NOT NULL, day TEXT NOT NULL, status TEXT NOT NULL,
              n BIGINT NOT NULL, total BIGINT NOT NULL, low BIGINT NOT NULL, high BIGINT NOT NULL,
              PRIMARY KEY (merchant_id, currency, day, status)
            )
            """,
            function("payment_daily_total_add", addNew),
            function("payment_daily_total_replace", removeOld + "\n" + addNew),
            function("payment_daily_total_remove", removeOld),
            trigger("payment_daily_total_insert", "INSERT", when: "NEW.kind IN (\(kinds))", "payment_daily_total_add"),
            trigger(
                "payment_daily_total_update", "UPDATE OF status, amount_requested, amount_captured, amount_tip",
                when: """
                    OLD.kind IN (\(kinds))
                      AND (OLD.status IS DISTINCT FROM NEW.status OR \(amount("OLD")) IS DISTINCT FROM \(amount("NEW")))
                    """,
                "payment_daily_total_replace"),
            trigger("payment_daily_total_delete", "DELETE", when: "OLD.kind IN (\(kinds))", "payment_daily_total_remove"),
        ]
    }

    /// Adds `NEW` to its day's figures (SQLite's `DailyTotals.add`, with LEAST and GREATEST
    /// for SQLite's two-argument min and max).
    private static var addNew: String {
        let amount = DailyTotals.amount("NEW")
        return """
            INSERT INTO payment_daily_total (merchant_id, currency, day, status, n, total, low, high)
            VALUES (NEW.merchant_id, NEW.currency, substr(NEW.created_at, 1, 10), NEW.status, 1,
              \(amount), \(amount), \(amount))
            ON CONFLICT (merchant_id, currency, day, status) DO UPDATE SET
              n = payment_daily_total.n + 1, total = payment_daily_total.total + excluded.total,
              low = LEAST(payment_daily_total.low, excluded.low), high = GREATEST(payment_daily_total.high, excluded.high);
            """
    }

    /// Takes `OLD` out of its day's figures and reads the extremes again from the rows left
    /// (SQLite's `DailyTotals.removeOld`, with date arithmetic in PostgreSQL's words).
    private static var removeOld: String {
        let rows = """
            FROM payment_transaction
            WHERE merchant_id = OLD.merchant_id AND currency = OLD.currency AND status = OLD.status
              AND created_at >= substr(OLD.created_at, 1, 10)
              AND created_at < to_char(CAST(substr(OLD.created_at, 1, 10) AS date) + 1, 'YYYY-MM-DD')
              AND kind IN (\(StatisticsByDayQuery.kinds))
            """
        let each = DailyTotals.amount("payment_transaction").replacingOccurrences(of: "payment_transaction.", with: "")
        let key = DailyTotals.key("OLD")
        return """
            UPDATE payment_daily_total SET n = n - 1, total = total - \(DailyTotals.amount("OLD")) WHERE \(key);
            DELETE FROM payment_daily_total WHERE \(key) AND n = 0;
            UPDATE payment_daily_total SET
              low = (SELECT MIN(\(each)) \(rows)), high = (SELECT MAX(\(each)) \(rows))
            WHERE \(key);
            """
    }

    /// A trigger function running `body` (over `NEW` and `OLD`).
    static func function(_ name: String, _ body: String) -> String {
        """
        CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
        \(body)
        RETURN NULL;
        END
        $body$
        """
    }

    /// An after-row trigger on the ledger calling `function` when `condition` holds.
    static func trigger(_ name: String, _ event: String, when condition: String, _ function: String) -> String {
        """
        CREATE TRIGGER \(name) AFTER \(event) ON payment_transaction
        FOR EACH ROW WHEN (\(condition)) EXECUTE FUNCTION \(function)()
        """
    }
}
