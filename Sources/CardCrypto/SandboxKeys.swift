import EMV

/// The published keys of the MPOSKit sandbox: the simulated reader encrypts and the sandbox
/// gateway decrypts and verifies with them.
///
/// **Test keys only.** They are public, printed in the documentation and in this source; never
/// use them, or anything derived from them, with real cards or production systems.
///
/// | Name   | Hex                                | Use                                        |
/// |--------|------------------------------------|--------------------------------------------|
/// | BDK    | `673476F35E9A44885CA57A8C76FD979E` | AES-128 DUKPT Base Derivation Key          |
/// | BDK ID | `FDF8B878`                         | first half of every sandbox Initial Key ID |
/// | IMK-AC | `AD8152E25FB13CB5D1A4022511EB4248` | AES-128 issuer master key for cryptograms  |
public enum SandboxKeys {
    /// Hex of the sandbox AES-128 BDK: `673476F35E9A44885CA57A8C76FD979E`. Test key.
    public static let bdkHex = "673476F35E9A44885CA57A8C76FD979E"
    /// Hex of the sandbox BDK ID: `FDF8B878`.
    public static let bdkIDHex = "FDF8B878"
    /// Hex of the sandbox AES-128 issuer master key for application cryptograms (IMK-AC):
    /// `AD8152E25FB13CB5D1A4022511EB4248`. Test key.
    public static let imkACHex = "AD8152E25FB13CB5D1A4022511EB4248"

    /// The sandbox AES-128 Base Derivation Key, `673476F35E9A44885CA57A8C76FD979E`. Test key.
    public static let bdk = AES128Key(derived: bytes(bdkHex))
    /// The sandbox BDK ID, `FDF8B878`: the first 4 bytes of every sandbox KSN.
    public static let bdkID: [UInt8] = bytes(bdkIDHex)
    /// The sandbox issuer master key for application cryptograms (IMK-AC),
    /// `AD8152E25FB13CB5D1A4022511EB4248`. Test key.
    public static let imkAC = AES128Key(derived: bytes(imkACHex))

    /// Name → hex of every published sandbox key, for checking the documentation against the
    /// code: `"BDK"`, `"BDK ID"`, `"IMK-AC"`.
    public static let documentedHex: [String: String] = [
        "BDK": bdkHex,
        "BDK ID": bdkIDHex,
        "IMK-AC": imkACHex,
    ]

    /// The Initial Key ID of sandbox device `derivationID`: ``bdkID`` followed by the 4-byte
    /// big-endian derivation ID.
    public static func initialKeyID(derivationID: UInt32) -> [UInt8] {
        bdkID + [
            UInt8(derivationID >> 24), UInt8(truncatingIfNeeded: derivationID >> 16),
            UInt8(truncatingIfNeeded: derivationID >> 8), UInt8(truncatingIfNeeded: derivationID),
        ]
    }

    /// Decodes a constant of this file; they are fixed valid hex.
    private static func bytes(_ hex: String) -> [UInt8] {
        guard let value = try? Hex.decode(hex) else { preconditionFailure("invalid sandbox key constant") }
        return value
    }
}
