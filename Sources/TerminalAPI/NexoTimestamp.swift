import Foundation

/// A Terminal API timestamp: ISO 8601 with a date, a time, optional fractional seconds and a
/// zone (`Z` or `±hh:mm`), as terminals send them (`2019-04-29T09:19:51.000Z`,
/// `2023-06-12T12:08:36+00:00`). The text is kept as received so a message re-encodes byte
/// for byte; `date` is the instant it names.
public struct NexoTimestamp: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The timestamp as it travels in JSON.
    public let text: String
    /// The instant.
    public let date: Date

    /// Parses an ISO 8601 timestamp; nil when the text is not one.
    public init?(_ text: String) {
        guard let date = Self.parse(Array(text.utf8)) else { return nil }
        self.text = text
        self.date = date
    }

    /// The instant in UTC with milliseconds, as Adyen's terminals write it.
    public init(_ date: Date) {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        let whole = Date(timeIntervalSince1970: millis / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let ms = Int(millis.truncatingRemainder(dividingBy: 1000) + 1000) % 1000
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        self.text =
            "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)).\(pad(ms, 3))Z"
        self.date = whole
    }

    /// Decodes the JSON string, refusing text that is not an ISO 8601 timestamp.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = NexoTimestamp(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an ISO 8601 timestamp")
        }
        self = parsed
    }

    /// Encodes the text as received.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The text.
    public var description: String { text }

    /// `YYYY-MM-DDThh:mm:ss[.f…](Z|±hh:mm)`, by hand: Foundation's parsers differ between
    /// platforms on fractional seconds and offsets.
    private static func parse(_ b: [UInt8]) -> Date? {
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var value = 0
            for _ in 0..<width {
                guard (48...57).contains(b[i]) else { return nil }
                value = value * 10 + Int(b[i] - 48)
                i += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            expect(84), let hour = number(2), expect(58), let minute = number(2), expect(58),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, (48...57).contains(b[i]) {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if expect(90) {
            offset = 0
        } else if i < b.count, b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let hours = number(2), expect(58), let minutes = number(2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let base = calendar.date(from: components),
            calendar.component(.day, from: base) == day
        else { return nil }
        return base.addingTimeInterval(fraction - Double(offset))
    }
}
