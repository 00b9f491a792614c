import EMV

/// EMV key derivation for AES-128 keys (EMV Book 2, Annex A1.3 and A1.4): issuer master key →
/// ICC master key → per-transaction session key.
///
/// The issuer derives both from its IMK and the card's data when verifying; the card (here, the
/// simulated reader's card) stores its ICC master key and derives the session key from the ATC.
public enum EMVKeyDerivation {
    /// The ICC master key MK-AC from the issuer master key, EMV Book 2 A1.4.1 (Option A), AES
    /// variant. Exact layout implemented:
    ///
    /// 1. X = the PAN's digits followed by the two PAN Sequence Number digits (`00` when the
    ///    card has no tag 5F34).
    /// 2. If X has fewer than 16 digits it is left-padded with `0` digits to 16; otherwise the
    ///    rightmost 16 digits are taken. Y = those 16 digits packed as BCD, 8 bytes.
    /// 3. MK = AES(IMK)[Y || (Y ⊕ `FF FF FF FF FF FF FF FF`)]: the one 16-byte block holds the
    ///    same two halves that the TDES variant enciphers separately (ZL from Y, ZR from the
    ///    complement). No DES parity adjustment is applied to an AES key.
    ///
    /// Option B (the SHA-1 variant for PANs over 16 digits) is not implemented; Option A
    /// applies to every PAN length here.
    /// - Parameters:
    ///   - issuerMasterKey: the 16-byte IMK-AC.
    ///   - pan: the application PAN (tag 5A).
    ///   - panSequenceNumber: the raw byte of tag 5F34 (BCD, `0x01` for sequence 01), or `nil`.
    /// - Throws: ``CardCryptoError/Kind/invalidPAN`` for a sequence number that is not BCD.
    public static func iccMasterKey(issuerMasterKey: AES128Key, pan: PAN, panSequenceNumber: UInt8?)
        throws(CardCryptoError) -> AES128Key
    {
        let imk = issuerMasterKey.bytes
        let psn = panSequenceNumber ?? 0
        guard psn >> 4 <= 9, psn & 0x0F <= 9 else {
            throw CardCryptoError(.invalidPAN, "the PAN sequence number is not two BCD digits")
        }
        let y = try diversificationBlock(panDigits: pan.unmaskedDigits, psn: psn)
        let block = y + y.map { $0 ^ 0xFF }
        return AES128Key(derived: try AESBlock.encrypt(block, key: imk))
    }

    /// Y of A1.4.1 step 2: the rightmost 16 digits of PAN || PSN, zero-padded on the left, as
    /// 8 BCD bytes.
    static func diversificationBlock(panDigits: String, psn: UInt8) throws(CardCryptoError) -> [UInt8] {
        var digits: [UInt8] = []
        for scalar in panDigits.utf8 {
            guard scalar >= UInt8(ascii: "0"), scalar <= UInt8(ascii: "9") else {
                throw CardCryptoError(.invalidPAN, "the PAN contains a character that is not a digit")
            }
            digits.append(scalar - UInt8(ascii: "0"))
        }
        guard !digits.isEmpty else { throw CardCryptoError(.invalidPAN, "the PAN is empty") }
        digits += [psn >> 4, psn & 0x0F]
        if digits.count < 16 {
            digits = [UInt8](repeating: 0, count: 16 - digits.count) + digits
        } else {
            digits = Array(digits.suffix(16))
        }
        return stride(from: 0, to: 16, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The application-cryptogram session key, EMV Book 2 A1.3.1 (Common Session Key
    /// Derivation) with the diversification value of 8.1.2, for AES-128 (block size n = 128,
    /// key size k = 128):
    ///
    /// - R = ATC (2 bytes) || 14 bytes `00`;
    /// - F1 = R with its third byte replaced by `F0`: ATC || `F0` || 13 bytes `00`;
    /// - SK = AES(MK)[F1] (since k = n, only F1 is needed; F2 with `0F` would serve k > n).
    /// - Parameter atc: the Application Transaction Counter (tag 9F36).
    public static func sessionKey(iccMasterKey: AES128Key, atc: UInt16) throws(CardCryptoError) -> AES128Key {
        let mk = iccMasterKey.bytes
        var f1 = [UInt8](repeating: 0, count: 16)
        f1[0] = UInt8(atc >> 8)
        f1[1] = UInt8(truncatingIfNeeded: atc)
        f1[2] = 0xF0
        return AES128Key(derived: try AESBlock.encrypt(f1, key: mk))
    }

    /// Issuer-side shortcut: ``iccMasterKey(issuerMasterKey:pan:panSequenceNumber:)`` then
    /// ``sessionKey(iccMasterKey:atc:)``.
    public static func sessionKey(
        issuerMasterKey: AES128Key, pan: PAN, panSequenceNumber: UInt8?, atc: UInt16
    )
        throws(CardCryptoError) -> AES128Key
    {
        let mk = try iccMasterKey(
            issuerMasterKey: issuerMasterKey, pan: pan, panSequenceNumber: panSequenceNumber)
        return try sessionKey(iccMasterKey: mk, atc: atc)
    }
}
