#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

/// A strict, forward-only reader of one JSON text, for the hand-written decoders of the
/// answers on a payment's path (``Transaction/decodeGatewayJSON(_:)``).
///
/// It reads only what those decoders expect: objects, strings, integers, booleans and null,
/// and skips members it does not know (nested objects and arrays included), as `JSONDecoder`
/// ignores unknown keys. Anything else (a fraction or an exponent, a `\u` escape, a string
/// with non-ASCII bytes, a repeated key, text after the value) throws ``Surprise``: the caller then
/// decodes the same bytes with `JSONDecoder`, whose answer (a value or its error) is the
/// reference. The reader never decides what `JSONDecoder` would reject.
package struct JSONBytesReader {
    /// Not a text this reader vouches for; decode it with `JSONDecoder`.
    package struct Surprise: Error {}

    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    /// Throws unless only whitespace is left.
    mutating func finish() throws(Surprise) {
        skipWhitespace()
        guard index == bytes.count else { throw Surprise() }
    }

    /// Reads an object, calling `member` with each key; `member` must read or skip the value.
    /// A key seen twice is a surprise (which one `JSONDecoder` keeps is its business).
    mutating func object(_ member: (inout JSONBytesReader, String) throws(Surprise) -> Void) throws(Surprise) {
        try expect(UInt8(ascii: "{"))
        var seen: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            let key = try string()
            guard seen.insert(key).inserted else { throw Surprise() }
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw Surprise()
            }
        }
    }

    /// True, having read it, when the next value is `null`.
    mutating func null() -> Bool {
        skipWhitespace()
        guard bytes[index...].starts(with: Self.nullLiteral) else { return false }
        index += Self.nullLiteral.count
        return true
    }

    /// A string, or nil for `null`.
    mutating func optionalString() throws(Surprise) -> String? {
        null() ? nil : try string()
    }

    /// A boolean, or nil for `null`.
    mutating func optionalBoolean() throws(Surprise) -> Bool? {
        null() ? nil : try boolean()
    }

    /// The value a string names; a name the type does not know is a surprise.
    mutating func named<T: RawRepresentable>(_ type: T.Type) throws(Surprise) -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw Surprise() }
        return value
    }

    /// The value a string names, or nil for `null`.
    mutating func optionalNamed<T: RawRepresentable>(_ type: T.Type) throws(Surprise) -> T?
    where T.RawValue == String {
        null() ? nil : try named(type)
    }

    /// A string of ASCII characters, without `\u` escapes.
    mutating func string() throws(Surprise) -> String {
        try expect(UInt8(ascii: "\""))
        var unescaped: [UInt8] = []
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text: String
                if unescaped.isEmpty {
                    text = String(decoding: bytes[start..<index], as: UTF8.self)
                } else {
                    unescaped.append(contentsOf: bytes[start..<index])
                    text = String(decoding: unescaped, as: UTF8.self)
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                unescaped.append(contentsOf: bytes[start..<index])
                guard index + 1 < bytes.count else { throw Surprise() }
                switch bytes[index + 1] {
                case UInt8(ascii: "\""): unescaped.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): unescaped.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): unescaped.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                default: throw Surprise()
                }
                index += 2
                start = index
            case 0..<0x20, 0x80...:
                // Control characters are JSONDecoder's to refuse; non-ASCII text its to
                // validate as UTF-8.
                throw Surprise()
            default:
                index += 1
            }
        }
        throw Surprise()
    }

    /// An integer written as JSON integers are (no fraction, no exponent) that fits `Int64`.
    mutating func integer() throws(Surprise) -> Int64 {
        skipWhitespace()
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { throw Surprise() }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { throw Surprise() }
        if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            throw Surprise()
        }
        return value
    }

    /// `true` or `false`.
    mutating func boolean() throws(Surprise) -> Bool {
        skipWhitespace()
        if bytes[index...].starts(with: Self.trueLiteral) {
            index += Self.trueLiteral.count
            return true
        }
        if bytes[index...].starts(with: Self.falseLiteral) {
            index += Self.falseLiteral.count
            return false
        }
        throw Surprise()
    }

    /// A date as `GatewayJSON`'s coders write it, `yyyy-MM-ddTHH:mm:ssZ` in UTC.
    mutating func date() throws(Surprise) -> Date {
        let text = Array(try string().utf8)
        guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[19] == UInt8(ascii: "Z")
        else { throw Surprise() }
        func number(_ range: Range<Int>) throws(Surprise) -> Int64 {
            var value: Int64 = 0
            for byte in text[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw Surprise() }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let (year, month, day) = (try number(0..<4), try number(5..<7), try number(8..<10))
        let (hour, minute, second) = (try number(11..<13), try number(14..<16), try number(17..<19))
        // Only dates that exist: what a calendar would roll over or refuse goes to JSONDecoder.
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLength: [Int64] = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard year >= 1, (1...12).contains(month), (1...monthLength[Int(month - 1)]).contains(day), hour < 24,
            minute < 60, second < 60
        else { throw Surprise() }
        let days = SQLiteTimestamp.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Reads past any one value, checking only that its brackets and strings close.
    mutating func skip() throws(Surprise) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"):
            try object { reader, _ throws(Surprise) in try reader.skip() }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                try skip()
                skipWhitespace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return
                default: throw Surprise()
                }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try boolean()
        case UInt8(ascii: "n"):
            guard null() else { throw Surprise() }
        default:
            _ = try integer()
        }
    }

    private static let nullLiteral = Array("null".utf8)
    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(Surprise) {
        skipWhitespace()
        guard next() == byte else { throw Surprise() }
    }
}
