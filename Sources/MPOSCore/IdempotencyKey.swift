import Foundation

/// A key that makes a request safe to retry: the gateway performs the first request it
/// sees with a given key and answers repeats with the same result, so a sale retried
/// after a lost connection cannot charge the cardholder twice.
///
/// A key is 1 to 64 characters from `A-Z`, `a-z`, `0-9`, `-` and `_`. ``init()`` makes a
/// fresh one in UUID form, version 7 (time-ordered, `"019d7a3c-5e21-7c1b-9d55-0b8f2f4f7e21"`);
/// keep it with the pending request and reuse it for every retry of that request.
///
/// Encodes as its string; decoding validates it.
public struct IdempotencyKey: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The longest key accepted.
    public static let maximumLength = 64

    /// The key's text.
    public let rawValue: String

    /// Wraps `rawValue` if it is a valid key; `nil` otherwise.
    public init?(rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Wraps `text` if it is a valid key.
    ///
    /// - Throws: ``MPOSError/invalidIdentifier`` when the text is empty, longer than 64
    ///   characters, or holds a character other than `A-Z a-z 0-9 - _`.
    public init(validating text: some StringProtocol) throws(MPOSError) {
        guard let key = IdempotencyKey(rawValue: String(text)) else {
            throw MPOSError.invalidIdentifier.withMessage(
                "An idempotency key must be 1 to \(Self.maximumLength) characters of "
                    + "A-Z, a-z, 0-9, '-' and '_' (\(text.utf8.count) bytes given).")
        }
        self = key
    }

    /// A new key: a version 7 UUID in lower-case hex, 36 characters: the time in milliseconds
    /// since 1970, then 74 random bits.
    ///
    /// Keys made later sort later, so a server that indexes them (the sandbox gateway keeps
    /// every key with its answer) adds each one at the end of its index instead of at a
    /// random page: a commit of many payments then writes a page or two of that index, not
    /// one per payment. The 74 random bits keep keys of the same millisecond apart.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(using: &generator, at: Date())
    }

    /// A new key for `time` drawn from `generator`, as a version 7 UUID (RFC 9562) in
    /// lower-case hex. Use the system generator and the current time in production; a seeded
    /// generator and a fixed time make tests repeatable.
    ///
    /// The first 6 bytes are the milliseconds since 1970, big-endian (a time before 1970
    /// counts as 0); the other 10 are two draws of 64 bits, little-endian (``RandomBytes``),
    /// with the version and variant bits set.
    public init(using generator: inout some RandomNumberGenerator, at time: Date = Date()) {
        var bytes = TimeOrderedPrefix.bytes(of: time) + RandomBytes.make(10, using: &generator)
        bytes[6] = bytes[6] & 0x0F | 0x70  // version 7
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 9562 variant
        let digits = Self.hexDigits
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        self.rawValue = String(decoding: text, as: UTF8.self)
    }

    /// The key's text.
    public var description: String { rawValue }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...maximumLength).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
