import Foundation
import GRDB
import SandboxCards

/// The sandbox issuer's memory of chip counters, in the gateway's database: every DUKPT KSN
/// seen, and per card application (card fingerprint and PAN sequence number) and transaction
/// date (9A) the highest ATC. ``PreparedAuthorization/record(_:)`` reads and updates it inside
/// the serialized write that records the decision, so two concurrent replays cannot both
/// pass and a restart forgets nothing.
///
/// The ATC is kept per transaction date because the emulated reader's chips share one card
/// number across every emulator and restart: each starts its counter from the time of day
/// (docs/test-cards.md). The date is the one the cryptogram covers, so a replay always meets
/// its own day's counter.
enum ReplayGuard {
    /// The counter tables (migration `payments-7-cryptogram-counters`).
    @Sendable static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE payment_card_counter (
                  card_fingerprint TEXT NOT NULL,
                  psn INTEGER NOT NULL,
                  transaction_date TEXT NOT NULL,
                  highest_atc INTEGER NOT NULL,
                  PRIMARY KEY (card_fingerprint, psn, transaction_date)
                ) WITHOUT ROWID;
                CREATE TABLE payment_ksn_seen (
                  ksn BLOB NOT NULL PRIMARY KEY
                ) WITHOUT ROWID;
                """)
    }

    /// Claims `counters` for this request: remembers its KSN and raises its card
    /// application's highest ATC, and returns `nil`; or, when they were seen before, changes
    /// nothing and returns why it is a replay
    /// (``CryptogramReplay/reason(_:highestATC:ksnSeenBefore:)``).
    ///
    /// The claim is decided by the writes' row counts, not by a read before them: two
    /// gateway instances on one PostgreSQL database may read "unseen" at the same moment,
    /// but only one insert of a KSN succeeds and only one raise of an ATC past a value
    /// happens; the other waits for the first's commit and then finds nothing to change.
    ///
    /// - Parameter inOrder: whether its ATC must be above the highest seen. Not for a sale the
    ///   card approved offline and the terminal forwards later: by then the card may have paid
    ///   online with a higher counter (a customer who comes back once the gateway answers
    ///   again), and its TC is no less genuine for arriving late; its KSN must still be new.
    static func claim(
        _ db: any SQLSession, fingerprint: String, counters: CryptogramCounters, inOrder: Bool = true
    ) throws -> String? {
        let claimKSN = "INSERT INTO payment_ksn_seen (ksn) VALUES (?) ON CONFLICT DO NOTHING"
        let ksn: StatementArguments = [Data(counters.ksn)]
        guard inOrder, let atc = counters.atc, let date = counters.transactionDate else {
            let ksnIsNew = try db.execute(sql: claimKSN, arguments: ksn) > 0
            guard ksnIsNew, let atc = counters.atc, let date = counters.transactionDate else {
                return CryptogramReplay.reason(counters, highestATC: nil, ksnSeenBefore: !ksnIsNew)
            }
            // Out of order: a new KSN is all it needs; the counter keeps the larger ATC.
            try db.execute(
                sql: raise(db.dialect),
                arguments: [fingerprint, Int(counters.panSequenceNumber), date, Int(atc)])
            return nil
        }
        let key: StatementArguments = [fingerprint, Int(counters.panSequenceNumber), date]
        // A seen KSN changes nothing more; a fresh KSN raises the counter, or is forgotten
        // again when the ATC is not above the highest (the request is refused unrecorded).
        // The two claims are one round trip where the engine can run them as one statement.
        let changed = try db.execute(
            sql: claimKSN, arguments: ksn, thenIfChanged: raiseInOrder, arguments: key + [Int(atc)])
        let ksnIsNew = changed.first > 0
        if changed.second > 0 { return nil }
        if ksnIsNew {
            try db.execute(sql: "DELETE FROM payment_ksn_seen WHERE ksn = ?", arguments: ksn)
        }
        let highest = try db.fetchValue(
            Int.self,
            sql: """
                SELECT highest_atc FROM payment_card_counter
                WHERE card_fingerprint = ? AND psn = ? AND transaction_date = ?
                """,
            arguments: key
        ).map { UInt16(truncatingIfNeeded: $0) }
        return CryptogramReplay.reason(counters, highestATC: highest, ksnSeenBefore: !ksnIsNew)
            ?? "replayed cryptogram: ATC \(atc) was raised by another request"
    }

    /// Inserts a card application's counter, or raises it only when the new ATC is above the
    /// stored one (no row changed otherwise: the ATC is not fresh); only when `condition`
    /// holds.
    private static func raiseInOrder(when condition: String) -> String {
        """
        INSERT INTO payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc)
        SELECT ?, ?, ?, ? WHERE \(condition)
        ON CONFLICT (card_fingerprint, psn, transaction_date)
        DO UPDATE SET highest_atc = excluded.highest_atc
        WHERE payment_card_counter.highest_atc < excluded.highest_atc
        """
    }

    /// Inserts a card application's counter or keeps the larger of the stored and new ATC,
    /// in each dialect's words (made once: it runs in every card authorisation).
    private static func raise(_ dialect: SQLDialect) -> String { raiseByDialect[dialect] ?? raiseKeepingLarger(dialect) }

    private static let raiseByDialect = Dictionary(
        uniqueKeysWithValues: SQLDialect.allCases.map { ($0, raiseKeepingLarger($0)) })
    private static func raiseKeepingLarger(_ dialect: SQLDialect) -> String {
        """
        INSERT INTO payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc)
        VALUES (?, ?, ?, ?)
        ON CONFLICT (card_fingerprint, psn, transaction_date)
        DO UPDATE SET highest_atc = \(dialect.greatest("payment_card_counter.highest_atc", "excluded.highest_atc"))
        """
    }

    /// The issuer's answer to a replay: declined with ``CryptogramReplay/responseCode`` and
    /// the reason, and no tag 91: the issuer does not authenticate itself to a cryptogram it
    /// refuses as replayed, so the card ends the transaction with an AAC.
    static func declined(_ reason: String) -> IssuerAnswer {
        IssuerAnswer(
            approved: false, approvedAmount: nil, responseCode: CryptogramReplay.responseCode,
            authorizationCode: nil, message: reason, issuerAuthenticationData: nil)
    }
}
