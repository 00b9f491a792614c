import Foundation
import GRDB
import MPOSCore
import Testing

@testable import MPOSKit

/// The journal writes an attempt with its own statement instead of GRDB's generic `save`: the
/// rows it writes must be the ones GRDB would have written, so that reading them back (and
/// journals written by earlier versions) is unchanged, and its durable writes must still sync.
@Suite(.timeLimit(.minutes(2))) struct JournalStorageTests {
    /// A journal file and a reference file with the same schema, in a directory of their own.
    struct Files {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-storage-\(UUID().uuidString)")
        var journalPath: String { directory.appendingPathComponent("journal.sqlite").path }
        var referencePath: String { directory.appendingPathComponent("reference.sqlite").path }

        /// Removes the files.
        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// 2023-11-14 22:13:20 UTC, plus `milliseconds` (the text form GRDB stores keeps whole
    /// milliseconds only, so an entry read back may differ from the one written there).
    static func date(_ milliseconds: Double = 0) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + milliseconds / 1000) }

    static func entry(
        key: String = "key-1", state: JournalEntry.State = .created, filled: Bool = false, text: String = "text",
        createdAt: Date = date(), updatedAt: Date = date()
    ) -> JournalEntry {
        JournalEntry(
            key: Self.key(key), operation: .card(.sale), readerTransactionID: filled ? "reader-\(text)" : nil,
            originalTransactionID: filled ? Self.id("original-\(text)") : nil,
            amount: filled ? 9_223_372_036_854_775_807 : nil, currency: filled ? .eur : nil, state: state,
            maskedPAN: filled ? "476173******0119" : nil, gatewayTransactionID: filled ? Self.id("gateway-\(text)") : nil,
            outcome: filled ? .approved : nil, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// `text` as an idempotency key (a test's keys are valid ones).
    static func key(_ text: String) -> IdempotencyKey { IdempotencyKey(rawValue: text)! }

    /// A transaction id made of `text`'s printable ASCII characters (the others cannot be in one).
    static func id(_ text: String) -> TransactionID {
        TransactionID(rawValue: String(text.unicodeScalars.filter { (0x21...0x7E).contains($0.value) }))!
    }

    /// Entries whose rows the journal must write as GRDB does.
    static let entries: [JournalEntry] =
        [
            entry(key: "all-nil"),
            entry(key: "all-filled", state: .finished, filled: true),
            entry(key: "unicode-text", filled: true, text: "Zürich «ü» ключ 鍵 🔑"),
            entry(key: "milliseconds", createdAt: date(125), updatedAt: date(999.5)),
            entry(key: "empty-strings", filled: true, text: ""),
        ]
        + [JournalEntry.State.created, .authorizing, .approved, .reversing, .finished].map { entry(key: "state-\($0.rawValue)", state: $0) }

    /// The row with `key` in the file at `path`, read from a connection of its own.
    static func row(key: IdempotencyKey, at path: String) throws -> Row? {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM attempt WHERE key = ?", arguments: [key.rawValue])
        }
    }

    /// The entry with `key` in the file at `path`, read back through `FetchableRecord`.
    static func fetched(key: IdempotencyKey, at path: String) throws -> JournalEntry? {
        try DatabaseQueue(path: path).read { db in try JournalEntry.fetchOne(db, key: key.rawValue) }
    }

    /// Expects the two rows to hold the same columns with the same values, stored the same way.
    static func expectSameRow(_ fast: Row?, _ reference: Row?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try #require(fast, sourceLocation: sourceLocation)
        let reference = try #require(reference, sourceLocation: sourceLocation)
        #expect(Array(fast.columnNames) == Array(reference.columnNames), sourceLocation: sourceLocation)
        for name in reference.columnNames {
            let mine: DatabaseValue = fast[name]
            let theirs: DatabaseValue = reference[name]
            // The storage too: a date stored as a number would compare unequal to its text form
            // only there.
            #expect(
                "\(mine.storage)" == "\(theirs.storage)", "column \(name)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: entries) func theJournalWritesTheRowGRDBWrites(entry: JournalEntry) async throws {
        let files = Files()
        defer { files.remove() }
        let journal = try PaymentJournal(path: files.journalPath)
        try await journal.write(entry)
        _ = try PaymentJournal(path: files.referencePath)
        try await DatabaseQueue(path: files.referencePath).write { db in try entry.insert(db) }

        let fast = try Self.row(key: entry.key, at: files.journalPath)
        let reference = try Self.row(key: entry.key, at: files.referencePath)
        try Self.expectSameRow(fast, reference)
        let readBack = try #require(try journal.entry(key: entry.key))
        #expect(try readBack == Self.fetched(key: entry.key, at: files.referencePath))
        #expect(readBack.key == entry.key && readBack.state == entry.state && readBack.maskedPAN == entry.maskedPAN)
        #expect(abs(readBack.updatedAt.timeIntervalSince(entry.updatedAt)) < 0.001)
    }

    @Test func aJournalWithTextDatesIsMigratedToSecondsInOrder() async throws {
        let files = Files()
        defer { files.remove() }
        // What an earlier version left: dates as GRDB's text, and no v2 migration.
        do {
            let journal = try PaymentJournal(path: files.journalPath)
            try await journal.write(Self.entry(key: "later", createdAt: Self.date(2_000), updatedAt: Self.date(2_500)))
            try await journal.write(Self.entry(key: "earlier", createdAt: Self.date(125), updatedAt: Self.date(999)))
        }
        try await DatabaseQueue(path: files.journalPath).write { db in
            try db.execute(
                sql: "UPDATE attempt SET createdAt = ?, updatedAt = ? WHERE key = 'later'",
                arguments: ["2023-11-14 22:13:22.000", "2023-11-14 22:13:22.500"])
            try db.execute(
                sql: "UPDATE attempt SET createdAt = ?, updatedAt = ? WHERE key = 'earlier'",
                arguments: ["2023-11-14 22:13:20.125", "2023-11-14 22:13:20.999"])
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2-dates-as-seconds'")
        }
        let journal = try PaymentJournal(path: files.journalPath)
        // A new row, written as seconds, orders with the converted ones.
        try await journal.write(Self.entry(key: "newest", createdAt: Self.date(3_000), updatedAt: Self.date(3_000)))
        let all = try journal.all()
        #expect(all.map(\.key.rawValue) == ["earlier", "later", "newest"])
        let earlier = try #require(all.first)
        #expect(abs(earlier.createdAt.timeIntervalSince(Self.date(125))) < 0.000_5)
        #expect(abs(earlier.updatedAt.timeIntervalSince(Self.date(999))) < 0.000_5)
        // Numbers all (the column's affinity keeps a whole number of seconds as an integer).
        let textDates = try await DatabaseQueue(path: files.journalPath).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempt WHERE typeof(createdAt) = 'text' OR typeof(updatedAt) = 'text'")
        }
        #expect(textDates == 0)
    }

    @Test func theLogHasRoomReservedAndKeepsItAcrossAReopen() async throws {
        let files = Files()
        defer { files.remove() }
        let log = files.journalPath + "-wal"
        let room = WriteAheadLogRoom.bytes(pages: 1000 + 125, pageSize: PaymentJournal.pageSize)
        do {
            let journal = try PaymentJournal(path: files.journalPath)
            #expect(try Self.size(log) >= room)
            try await journal.write(Self.entry(key: "before-close"))
        }
        // Closed: SQLite checkpoints, and the log is kept with its room instead of deleted.
        #expect(try Self.size(log) >= room)
        let reopened = try PaymentJournal(path: files.journalPath)
        #expect(try reopened.entry(key: Self.key("before-close"))?.key.rawValue == "before-close")
    }

    @Test func durableWritesSurviveACrashWithRoomReservedInTheLog() async throws {
        let files = Files()
        defer { files.remove() }
        let journal = try PaymentJournal(path: files.journalPath)
        let entries = (0..<40).map { Self.entry(key: "crash-\($0)", state: .finished, filled: true, text: "\($0)") }
        for entry in entries { try await journal.write(entry) }
        // What a power cut leaves: the database and its log as they are on disk now, with the
        // commits only in the log (no checkpoint ran) followed by the reserved zeros.
        let copy = files.directory.appendingPathComponent("crash")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: files.journalPath + suffix, toPath: copy.appendingPathComponent("journal.sqlite").path + suffix)
        }
        let recovered = try PaymentJournal(path: copy.appendingPathComponent("journal.sqlite").path).all()
        #expect(recovered.map(\.key.rawValue).sorted() == entries.map(\.key.rawValue).sorted())
        #expect(recovered.allSatisfy { $0.state == .finished && $0.maskedPAN == "476173******0119" })
    }

    static func pageSize(at path: String) throws -> Int? {
        // A journal just let go may still be closing its connection (its last write's closure
        // holds it a moment after the write returned): wait for its lock instead of failing.
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            try Int.fetchOne(db, sql: "PRAGMA page_size")
        }
    }

    @Test func aNewJournalHasSmallPagesAndAnOldOneKeepsItsOwn() async throws {
        let files = Files()
        defer { files.remove() }
        do {
            let journal = try PaymentJournal(path: files.journalPath)
            try await journal.write(Self.entry(key: "new"))
        }
        #expect(try Self.pageSize(at: files.journalPath) == 1024)
        // A journal made before (4 KiB pages) opens, keeps its pages and its entries, and
        // takes new ones, with room reserved for its own page size.
        try FileManager.default.createDirectory(at: files.directory, withIntermediateDirectories: true)
        let old = files.referencePath
        try await DatabaseQueue(path: old).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            // Writes the header, fixing the page size, without a table the journal would refuse.
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        do {
            let journal = try PaymentJournal(path: old)
            try await journal.write(Self.entry(key: "old-1"))
            #expect(try Self.size(old + "-wal") >= WriteAheadLogRoom.bytes(pages: 1000 + 125, pageSize: 4096))
        }
        let reopened = try PaymentJournal(path: old)
        #expect(try reopened.entry(key: Self.key("old-1"))?.key.rawValue == "old-1")
        #expect(try Self.pageSize(at: old) == 4096)
    }

    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func aQueuedWriteWritesTheSameRow() async throws {
        let files = Files()
        defer { files.remove() }
        let entry = Self.entry(key: "queued", state: .authorizing, filled: true, updatedAt: Self.date(250))
        let journal = try PaymentJournal(path: files.journalPath)
        journal.enqueue(entry, durable: false)
        // Behind the queued write on the journal's queue.
        #expect(try journal.entry(key: entry.key) == entry)
        _ = try PaymentJournal(path: files.referencePath)
        try await DatabaseQueue(path: files.referencePath).write { db in try entry.insert(db) }
        try Self.expectSameRow(
            try Self.row(key: entry.key, at: files.journalPath), try Self.row(key: entry.key, at: files.referencePath))
    }

    @Test func aSecondWriteOfAnAttemptReplacesItsRow() async throws {
        let files = Files()
        defer { files.remove() }
        let first = Self.entry(key: "update", state: .created, createdAt: Self.date(1), updatedAt: Self.date(1))
        var changed = first
        changed.state = .finished
        changed.outcome = .declined
        changed.gatewayTransactionID = Self.id("gw-42")
        changed.maskedPAN = "476173******0119"
        changed.updatedAt = Self.date(500)
        let second = changed
        let journal = try PaymentJournal(path: files.journalPath)
        try await journal.write(first)
        try await journal.write(second)
        _ = try PaymentJournal(path: files.referencePath)
        try await DatabaseQueue(path: files.referencePath).write { db in
            try first.insert(db)
            try second.save(db)
        }

        try Self.expectSameRow(
            try Self.row(key: second.key, at: files.journalPath), try Self.row(key: second.key, at: files.referencePath))
        let all = try journal.all()
        #expect(try all == [Self.fetched(key: second.key, at: files.referencePath)])
        #expect(all.first?.state == .finished && all.first?.outcome == .declined && all.first?.gatewayTransactionID == Self.id("gw-42"))
        #expect(all.first.map { abs($0.updatedAt.timeIntervalSince(second.updatedAt)) < 0.001 } == true)
        #expect(all.first.map { abs($0.createdAt.timeIntervalSince(first.createdAt)) < 0.001 } == true)
    }

    @Test func theColumnListHasEveryStoredPropertyAndEveryColumnOfTheTable() async throws {
        let entry = Self.entry(filled: true)
        let properties = Mirror(reflecting: entry).children.compactMap(\.label)
        let columns = JournalEntry.columns.map(\.name)
        #expect(Mirror(reflecting: entry).children.count == JournalEntry.columns.count)
        #expect(properties == columns)
        // The statement names the key first: it is what a conflict is on.
        #expect(columns.first == "key")

        let files = Files()
        defer { files.remove() }
        _ = try PaymentJournal(path: files.journalPath)
        let table = try await DatabaseQueue(path: files.journalPath).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('attempt') ORDER BY cid")
        }
        #expect(table == columns)
    }

    /// Queues a write of the entry with `key` in each state in turn, durable as `durable`
    /// says; the last one carries `outcome`.
    static func enqueue(
        _ key: String, _ states: [JournalEntry.State], durable: [Bool], outcome: PaymentStatus? = nil, on journal: PaymentJournal
    ) -> JournalEntry {
        var entry = entry(key: key)
        for (index, (state, durable)) in zip(states, durable).enumerated() {
            entry.state = state
            entry.outcome = index == states.count - 1 ? outcome : nil
            journal.enqueue(entry, durable: durable)
        }
        return entry
    }

    @Test func commitsAndCheckpointsAskForAFullSyncWhereTheDriveCachesWrites() throws {
        let files = Files()
        defer { files.remove() }
        let journal = try PaymentJournal(path: files.journalPath)
        // F_FULLFSYNC on Apple platforms (a no-op where fsync reaches the medium).
        #expect(try journal.pragma("fullfsync") == "1")
        #expect(try journal.pragma("checkpoint_fullfsync") == "1")
    }

    @Test func aDurableWriteAfterRelaxedOnesCommitsWithFull() async throws {
        let files = Files()
        defer { files.remove() }
        let journal = try PaymentJournal(path: files.journalPath)
        _ = Self.enqueue("sale-1", [.created, .authorizing, .approved], durable: [true, false, false], on: journal)
        // `pragma` runs on the journal's queue, behind the queued writes: the relaxed ones
        // left NORMAL (1).
        #expect(try journal.pragma("synchronous") == "1")

        _ = Self.enqueue("sale-1", [.finished], durable: [true], outcome: .approved, on: journal)
        _ = Self.enqueue("sale-2", [.created, .authorizing, .reversing], durable: [true, false, true], on: journal)
        #expect(await journal.settleDurable().isEmpty)
        // The last write was durable: FULL (2).
        #expect(try journal.pragma("synchronous") == "2")

        var last = Self.enqueue("sale-2", [.approved], durable: [false], on: journal)
        last.state = .finished
        last.outcome = .declined
        try await journal.write(last)
        #expect(try journal.pragma("synchronous") == "2")
        #expect(try journal.all().map(\.state) == [.finished, .finished])
    }

    @Test func anotherSQLiteDatabaseIsRefusedAndLeftAsItWas() async throws {
        let files = Files()
        defer { files.remove() }
        try FileManager.default.createDirectory(at: files.directory, withIntermediateDirectories: true)
        let other = try DatabaseQueue(path: files.referencePath)
        try await other.write { db in try db.execute(sql: "CREATE TABLE orders (id INTEGER PRIMARY KEY)") }
        try other.close()
        #expect(throws: MPOSError.journalFailed) { try PaymentJournal(path: files.referencePath) }
        let reopened = try DatabaseQueue(path: files.referencePath)
        let tables = try await reopened.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["orders"])
        #expect(try await reopened.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
    }
}
