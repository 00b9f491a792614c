import EMV

/// How much the reader logs.
public enum ReaderLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Nothing.
    case none = 0
    /// Transactions and state changes.
    case info = 1
    /// Also each message exchanged.
    case full = 2
    /// Also internal detail.
    case debug = 3

    /// Lower levels log less.
    public static func < (lhs: ReaderLogLevel, rhs: ReaderLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The reader's log: a ring buffer of the most recent lines at or below the configured level,
/// with a filter that refuses any line that looks like a card number or track data, so that
/// no card data ever reaches it (PCI).
public struct ReaderLog: Sendable, Hashable {
    /// One line.
    public struct Entry: Sendable, Hashable {
        /// Increases by one for every line kept since the log was created.
        public let sequence: UInt64
        /// The line's level.
        public let level: ReaderLogLevel
        /// The text.
        public let message: String
    }

    /// Why ``ReaderLog/append(_:_:)`` did not keep a line.
    public enum Rejection: Sendable, Hashable {
        /// The line's level is above the log's level.
        case filteredByLevel
        /// The line looks like it holds a card number or track data.
        case looksLikeCardData
    }

    /// The level lines must be at or below to be kept.
    public var level: ReaderLogLevel
    /// The most lines kept; older ones drop out.
    public let capacity: Int
    /// How many lines were refused as card data.
    public private(set) var refusedCount = 0
    private var buffer: [Entry] = []
    private var head = 0
    private var nextSequence: UInt64 = 0

    /// An empty log.
    public init(level: ReaderLogLevel = .info, capacity: Int = 1_000) {
        self.level = level
        self.capacity = max(1, capacity)
    }

    /// Keeps `message` if its level is enabled and it holds nothing that looks like card data.
    /// - Returns: `nil` when kept, else why not.
    @discardableResult
    public mutating func append(_ messageLevel: ReaderLogLevel, _ message: String) -> Rejection? {
        guard messageLevel != .none, messageLevel <= level else { return .filteredByLevel }
        if ReaderLog.looksLikeCardData(message) {
            refusedCount += 1
            return .looksLikeCardData
        }
        let entry = Entry(sequence: nextSequence, level: messageLevel, message: message)
        nextSequence += 1
        if buffer.count < capacity {
            buffer.append(entry)
        } else {
            buffer[head] = entry
            head = (head + 1) % capacity
        }
        return nil
    }

    /// The kept lines, oldest first.
    public var entries: [Entry] { Array(buffer[head...] + buffer[..<head]) }

    /// Empties the log (the sequence keeps counting).
    public mutating func clear() {
        buffer.removeAll()
        head = 0
    }

    /// Whether text holds what looks like a card number or track data:
    ///
    /// - track 1 (`%B` followed by digits) or a track-2 shape: 12 or more digits, a separator
    ///   `=` or `D`, and 4 more digits (the expiry);
    /// - a run of 12–19 digits (spaces or dashes may separate groups) of which some 12–19
    ///   digit stretch passes the Luhn check and starts like a known card scheme. Hex dumps of
    ///   tag 5A are caught the same way.
    public static func looksLikeCardData(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        if let range = text.range(of: "%B"), text[range.upperBound...].first?.isNumber == true { return true }
        var index = 0
        while index < chars.count {
            guard isDigit(chars[index]) else {
                index += 1
                continue
            }
            // Collect a run of digits, allowing single spaces or dashes between them.
            var digits: [UInt8] = []
            var cursor = index
            while cursor < chars.count {
                if isDigit(chars[cursor]) {
                    digits.append(chars[cursor])
                    cursor += 1
                } else if chars[cursor] == UInt8(ascii: " ") || chars[cursor] == UInt8(ascii: "-"),
                    cursor + 1 < chars.count, isDigit(chars[cursor + 1])
                {
                    cursor += 1
                } else {
                    break
                }
            }
            if digits.count >= 12 {
                let separator = cursor < chars.count ? chars[cursor] : 0
                if separator == UInt8(ascii: "=") || separator == UInt8(ascii: "D")
                    || separator == UInt8(ascii: "d"),
                    cursor + 4 < chars.count, chars[(cursor + 1)...(cursor + 4)].allSatisfy(isDigit)
                {
                    return true
                }
                if containsPAN(digits) { return true }
            }
            index = max(cursor, index + 1)
        }
        return false
    }

    private static func containsPAN(_ digits: [UInt8]) -> Bool {
        for length in 12...min(19, digits.count) {
            for start in 0...(digits.count - length) {
                let candidate = String(decoding: digits[start..<(start + length)], as: UTF8.self)
                if PAN.luhnCheck(candidate), CardScheme(iin: candidate) != .unknown { return true }
            }
        }
        return false
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
