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

    /// Why a request with `counters` on the card with `fingerprint` is a replay, or `nil`
    /// when it is fresh (``CryptogramReplay/reason(_:highestATC:ksnSeenBefore:)``).
    ///
    /// - Parameter inOrder: whether its ATC must be above the highest seen. Not for a sale the
    ///   card approved offline and the terminal forwards later: by then the card may have paid
    ///   online with a higher counter (a customer who comes back once the gateway answers
    ///   again), and its TC is no less genuine for arriving late; its KSN must still be new.
    static func replayReason(
        _ db: any SQLSession, fingerprint: String, counters: CryptogramCounters, inOrder: Bool = true
    ) throws -> String? {
        let ksnSeen =
            try db.fetchValue(
                Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM payment_ksn_seen WHERE ksn = ?) AS seen",
                arguments: [Data(counters.ksn)]) ?? false
        var highest: UInt16?
        if inOrder, counters.atc != nil, let date = counters.transactionDate {
            highest = try db.fetchValue(
                Int.self,
                sql: """
                    SELECT highest_atc FROM payment_card_counter
                    WHERE card_fingerprint = ? AND psn = ? AND transaction_date = ?
                    """,
                arguments: [fingerprint, Int(counters.panSequenceNumber), date]
            ).map { UInt16(truncatingIfNeeded: $0) }
        }
        return CryptogramReplay.reason(counters, highestATC: highest, ksnSeenBefore: ksnSeen)
    }

    /// Remembers a fresh request's KSN and raises its card application's highest ATC.
    static func remember(_ db: any SQLSession, fingerprint: String, counters: CryptogramCounters) throws {
        try db.execute(
            sql: "INSERT INTO payment_ksn_seen (ksn) VALUES (?) ON CONFLICT DO NOTHING", arguments: [Data(counters.ksn)])
        guard let atc = counters.atc, let date = counters.transactionDate else { return }
        try db.execute(
            sql: """
                INSERT INTO payment_card_counter (card_fingerprint, psn, transaction_date, highest_atc)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (card_fingerprint, psn, transaction_date)
                DO UPDATE SET highest_atc = \(db.dialect.greatest("payment_card_counter.highest_atc", "excluded.highest_atc"))
                """,
            arguments: [fingerprint, Int(counters.panSequenceNumber), date, Int(atc)])
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
