import Crypto
import CryptoExtras
import Foundation
import MPOSCore

/// Random secrets and their one-way forms. Tokens and API keys are 32 random bytes, given
/// to the client once and stored only as SHA-256 hex; passwords are stored as salted
/// PBKDF2-HMAC-SHA256.
enum Secrets {
    /// `prefix` + 32 random bytes as lower-case hex.
    static func newToken(prefix: String) -> String {
        prefix + hex(randomBytes(32))
    }

    /// A random idempotency key (`dash-` and 16 random bytes as hex), for forms that move money.
    static func newIdempotencyKey() -> String {
        "dash-" + hex(randomBytes(16))
    }

    /// `count` bytes from the system's secure generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return RandomBytes.make(count, using: &generator)
    }

    /// Lower-case hex SHA-256 of the UTF-8 text.
    static func sha256Hex(_ text: String) -> String { sha256Hex(Data(text.utf8)) }

    /// Lower-case hex SHA-256 of the bytes.
    static func sha256Hex(_ data: Data) -> String { hex(Array(SHA256.hash(data: data))) }

    /// Lower-case hex.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A random identifier such as `"tx_3f0c9a526a1e4c1b"`: prefix and 8 random bytes.
    static func newID(prefix: String) -> String { prefix + hex(randomBytes(8)) }

    /// A random password that meets the policy: 16 characters of letters and digits with
    /// at least one of each.
    static func newPassword() -> String {
        let letters = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ")
        let digits = Array("23456789")
        let all = letters + digits
        var generator = SystemRandomNumberGenerator()
        var chars = (0..<14).map { _ in all.randomElement(using: &generator)! }
        chars.append(letters.randomElement(using: &generator)!)
        chars.append(digits.randomElement(using: &generator)!)
        chars.shuffle(using: &generator)
        return String(chars)
    }
}

/// Salted PBKDF2-HMAC-SHA256 password hashes in the self-describing form
/// `pbkdf2-sha256$<rounds>$<salt hex>$<hash hex>`.
enum PasswordHasher {
    static func hash(_ password: String, rounds: Int) throws -> String {
        let salt = Secrets.randomBytes(16)
        let derived = try derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Secrets.hex(salt))$\(Secrets.hex(derived))"
    }

    /// Whether `password` matches `stored`; compares in constant time.
    static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]),
            let salt = bytes(fromHex: parts[2]), let expected = bytes(fromHex: parts[3]),
            // A stored hash that cannot be derived against matches no password.
            let derived = try? derive(password, salt: salt, rounds: rounds)
        else { return false }
        guard derived.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(derived, expected) { difference |= a ^ b }
        return difference == 0
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32,
            unsafeUncheckedRounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }

    private static func bytes(fromHex text: Substring) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
