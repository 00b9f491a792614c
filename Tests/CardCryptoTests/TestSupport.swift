import EMV

@testable import CardCrypto

/// Bytes of a hex constant written in a test; a typo in one is a bug in the test.
func bytes(_ hex: String) -> [UInt8] {
    guard let value = try? Hex.decode(hex) else { preconditionFailure("bad hex in test: \(hex)") }
    return value
}

/// An AES-128 key from a hex constant written in a test.
func key(_ hex: String) -> AES128Key {
    guard let value = try? AES128Key(hex: hex) else { preconditionFailure("bad key in test: \(hex)") }
    return value
}

extension AES128Key {
    /// Upper-case hex of the key, for comparing with published vectors.
    var hexForTesting: String { Hex.encode(bytes) }
}

/// ANSI X9.24-3-2017 supplement test data for an AES-128 BDK (Annex B.1 / the X9 supplement
/// "Test vectors for validating the algorithm described in ANSI X9.24-3-2017"), as reproduced
/// in openemv/dukpt test/dukpt_aes128_test.c and moov-io/dukpt pkg/aes/aes_test.go.
enum X924Vectors {
    static let bdk = key("FEDCBA9876543210F1F1F1F1F1F1F1F1")
    static let initialKeyID = bytes("1234567890123456")
    static let initialKey = "1273671EA26AC29AFA4D1084127652A1"
    /// Counter → the transaction's derivation key.
    static let derivationKeys: [(counter: UInt32, key: String)] = [
        (0x0000_0001, "4F21B565BAD9835E112B6465635EAE44"),
        (0x0000_0002, "2F34D68DE10F68D38091A73B9E7C437C"),
        (0x0000_0003, "031504E530365CF81264238540518318"),
        (0x0000_0004, "0EEFC7ADA628BA68878DA9165A8A1887"),
        (0x0000_0005, "C2A7AC328A5DA2D6002D62465BFC028B"),
        (0x0000_0006, "D30F7D9351DA58448A2F5E92B4EE3B7D"),
        (0x0000_0007, "A8253CEED9AC042C54F75D35C8352278"),
        (0x0000_0008, "718EE6CF0B27E53D5F7AF99C4D8146A2"),
        (0x0001_FFFE, "E21E8C8D347F8561A2BE752DAA85A111"),
        (0x0002_0000, "F7AE9025468A25D37B7249CFFED224C8"),
        (0x0002_0001, "692C8EA4013645135B36497131DF9D2C"),
        (0xFFFE_2000, "48E585B694EB0B18D5C35443E163C0BA"),
        (0xFFFE_4000, "396C2C7CA1EA701C03B86B7D41F0C562"),
        (0xFFFE_8000, "0387625F189B58AE03EF0E8CCA41105E"),
        (0xFFFF_0000, "F6BA59389BD14A9855BE9727E7C52E3C"),
    ]
}
