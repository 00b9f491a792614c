/// Turns the seam's positional `?` placeholders into PostgreSQL's numbered `$1 … $n`.
///
/// A `?` inside a string literal (`'…'`, with `''` escapes), a dollar-quoted body
/// (`$$…$$`, `$tag$…$tag$`), a quoted identifier (`"…"`) or a comment (`-- …`, nested
/// `/* … */`) is text, not a placeholder, and stays as it is.
///
/// Quoted identifiers are folded to lower case: the PostgreSQL schema names every table and
/// column in lower case (``PostgresMigrations``), so `"merchantId"` and an unquoted
/// `merchantId` (which PostgreSQL folds itself) reach the same column, as both do in SQLite.
struct PostgresPlaceholders: Sendable, Equatable {
    /// The statement with numbered placeholders.
    let sql: String
    /// How many placeholders it has.
    let count: Int

    /// Translates `sql`.
    init(_ sql: String) {
        enum Mode: Equatable {
            case code, literal, identifier, lineComment
            case blockComment(depth: Int)
            case dollarQuoted(tag: [UInt8])
        }
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var mode = Mode.code
        var count = 0
        var index = 0
        func next(_ offset: Int = 1) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch mode {
            case .code:
                switch byte {
                case UInt8(ascii: "?"):
                    count += 1
                    output.append(UInt8(ascii: "$"))
                    output.append(contentsOf: String(count).utf8)
                    index += 1
                    continue
                case UInt8(ascii: "'"): mode = .literal
                case UInt8(ascii: "\""): mode = .identifier
                case UInt8(ascii: "-") where next() == UInt8(ascii: "-"): mode = .lineComment
                case UInt8(ascii: "/") where next() == UInt8(ascii: "*"):
                    mode = .blockComment(depth: 1)
                    output.append(contentsOf: [byte, UInt8(ascii: "*")])
                    index += 2
                    continue
                case UInt8(ascii: "$"):
                    if let tag = Self.dollarTag(bytes, at: index) {
                        mode = .dollarQuoted(tag: tag)
                        output.append(contentsOf: tag)
                        index += tag.count
                        continue
                    }
                default: break
                }
                output.append(byte)
            case .literal:
                if byte == UInt8(ascii: "'") { mode = .code }
                output.append(byte)
            case .identifier:
                if byte == UInt8(ascii: "\"") {
                    mode = .code
                    output.append(byte)
                } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                    output.append(byte + 32)
                } else {
                    output.append(byte)
                }
            case .lineComment:
                if byte == UInt8(ascii: "\n") { mode = .code }
                output.append(byte)
            case .blockComment(let depth):
                if byte == UInt8(ascii: "*"), next() == UInt8(ascii: "/") {
                    mode = depth == 1 ? .code : .blockComment(depth: depth - 1)
                    output.append(contentsOf: [byte, UInt8(ascii: "/")])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "/"), next() == UInt8(ascii: "*") {
                    mode = .blockComment(depth: depth + 1)
                    output.append(contentsOf: [byte, UInt8(ascii: "*")])
                    index += 2
                    continue
                }
                output.append(byte)
            case .dollarQuoted(let tag):
                if byte == UInt8(ascii: "$"), bytes[index...].starts(with: tag) {
                    mode = .code
                    output.append(contentsOf: tag)
                    index += tag.count
                    continue
                }
                output.append(byte)
            }
            index += 1
        }
        self.sql = String(decoding: output, as: UTF8.self)
        self.count = count
    }

    /// The opening `$tag$` of a dollar-quoted string at `start`, or nil when the `$` there
    /// starts none (a parameter `$1` or part of an identifier).
    private static func dollarTag(_ bytes: [UInt8], at start: Int) -> [UInt8]? {
        if start > 0 {
            let before = bytes[start - 1]
            if before == UInt8(ascii: "_") || (before >= 0x30 && before <= 0x39) || (before | 0x20 >= 0x61 && before | 0x20 <= 0x7A) {
                return nil
            }
        }
        var end = start + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "$") { return Array(bytes[start...end]) }
            let isLetter = byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            guard isLetter || byte == UInt8(ascii: "_") || (isDigit && end > start + 1) else { return nil }
            end += 1
        }
        return nil
    }
}
