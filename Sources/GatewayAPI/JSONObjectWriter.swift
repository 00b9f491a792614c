#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MPOSCore

/// One JSON object written as `GatewayJSON.makeEncoder()` writes it: members appended in the
/// caller's (sorted) order, nil values skipped, slashes and non-ASCII text as they are.
/// Shared by the hand-written encoders of hot messages (the gateway's transaction answers,
/// the SDK's card authorization requests), each of which a test compares with `JSONEncoder`.
package struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    package init() { bytes.reserveCapacity(512) }

    package mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        member(key)
        Self.appendString(value, to: &bytes)
    }

    package mutating func integer(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ key: StaticString, _ value: Bool) {
        member(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// ISO 8601 in UTC to the second, as `JSONEncoder.DateEncodingStrategy.iso8601`.
    package mutating func date(_ key: StaticString, _ value: Date) {
        member(key)
        let t = SQLiteTimestamp.UTCTime(value, roundingToNearestMillisecond: false)
        bytes.append(UInt8(ascii: "\""))
        t.appendDate(to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        t.appendTime(to: &bytes)
        bytes.append(contentsOf: "Z\"".utf8)
    }

    package mutating func object(_ key: StaticString, _ value: JSONObjectWriter) {
        member(key)
        bytes.append(contentsOf: value.finished())
    }

    package func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func member(_ key: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }

    /// A JSON string: quote and backslash escaped, control characters as short escapes
    /// or `\u00XX`, everything else (slashes and non-ASCII included) as it is.
    private static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x08: bytes.append(contentsOf: "\\b".utf8)
            case 0x0C: bytes.append(contentsOf: "\\f".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
