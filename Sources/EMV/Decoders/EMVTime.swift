/// A time of day in EMV's n 6 `HHMMSS` form, as in Transaction Time (`9F21`).
public struct EMVTime: Sendable, Hashable, CustomStringConvertible {
    /// Hours, 0-23.
    public let hour: Int
    /// Minutes, 0-59.
    public let minute: Int
    /// Seconds, 0-59.
    public let second: Int

    /// Decodes an `HHMMSS` value; throws unless it is 3 bytes of digits forming a real time.
    public init(_ value: some Collection<UInt8>) throws(EMVValueError) {
        let bytes = Array(value)
        try checkLength(bytes, .fixed(3))
        let hh = try BCD.twoDigits(bytes[0], at: 0)
        let mm = try BCD.twoDigits(bytes[1], at: 1)
        let ss = try BCD.twoDigits(bytes[2], at: 2)
        guard hh < 24, mm < 60, ss < 60 else {
            throw .invalidValue("\(hh):\(mm):\(ss) is not a time of day")
        }
        hour = hh
        minute = mm
        second = ss
    }

    /// `HH:MM:SS`.
    public var description: String {
        [hour, minute, second].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    /// The time as a sentence.
    public var statements: [String] { [description] }
}
