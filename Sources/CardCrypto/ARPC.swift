/// The Authorisation Response Cryptogram, ARPC Method 2 (EMV Book 2, 8.2.2), with the AES MAC
/// of Annex A1.2.2.
///
/// ARPC = leftmost 4 bytes of AES-CMAC(session key)[ARQC || CSU || Proprietary Authentication
/// Data], using the same session key as the ARQC. The issuer sends Issuer Authentication Data
/// (tag 91) = ARPC || CSU || Proprietary Authentication Data; the card checks it at the second
/// GENERATE AC.
public enum ARPC {
    /// ARPC length in bytes (Method 2).
    public static let length = 4
    /// Card Status Update length in bytes.
    public static let csuLength = 4
    /// Longest Proprietary Authentication Data, in bytes.
    public static let maximumProprietaryLength = 8

    /// Computes the 4-byte ARPC (issuer side).
    /// - Parameters:
    ///   - arqc: the card's 8-byte ARQC (tag 9F26).
    ///   - csu: the 4-byte Card Status Update the issuer sends.
    ///   - proprietary: Proprietary Authentication Data, 0–8 bytes (empty when unused).
    ///   - sessionKey: the AC session key the ARQC was verified with.
    /// - Throws: ``CardCryptoError/Kind/invalidDataElementLength`` for a wrong-sized input.
    public static func generate(arqc: [UInt8], csu: [UInt8], proprietary: [UInt8] = [], sessionKey: AES128Key)
        throws(CardCryptoError) -> [UInt8]
    {
        guard arqc.count == applicationCryptogramLength else {
            throw CardCryptoError(.invalidDataElementLength, "the ARQC must be 8 bytes, got \(arqc.count)")
        }
        guard csu.count == csuLength else {
            throw CardCryptoError(.invalidDataElementLength, "the CSU must be 4 bytes, got \(csu.count)")
        }
        guard proprietary.count <= maximumProprietaryLength else {
            throw CardCryptoError(
                .invalidDataElementLength,
                "proprietary authentication data is at most 8 bytes, got \(proprietary.count)")
        }
        return try AESCMAC.authenticationCode(
            for: arqc + csu + proprietary, key: sessionKey, truncatedTo: length)
    }

    /// The value of tag 91, Issuer Authentication Data: ARPC || CSU || proprietary (8–16 bytes).
    public static func issuerAuthenticationData(
        arqc: [UInt8], csu: [UInt8], proprietary: [UInt8] = [], sessionKey: AES128Key
    ) throws(CardCryptoError) -> [UInt8] {
        try generate(arqc: arqc, csu: csu, proprietary: proprietary, sessionKey: sessionKey) + csu
            + proprietary
    }

    /// Checks an ARPC (card side), comparing in constant time. Returns `false` for any
    /// wrong-sized input instead of throwing.
    public static func verify(
        arpc: [UInt8], arqc: [UInt8], csu: [UInt8], proprietary: [UInt8] = [], sessionKey: AES128Key
    ) -> Bool {
        guard arpc.count == length,
            let expected = try? generate(
                arqc: arqc, csu: csu, proprietary: proprietary, sessionKey: sessionKey)
        else { return false }
        return Bytes.constantTimeEqual(expected, arpc)
    }

    /// Checks the value of tag 91 (card side): splits it into ARPC, CSU and proprietary data and
    /// verifies the ARPC over them.
    public static func verify(issuerAuthenticationData: [UInt8], arqc: [UInt8], sessionKey: AES128Key) -> Bool
    {
        guard issuerAuthenticationData.count >= length + csuLength,
            issuerAuthenticationData.count <= length + csuLength + maximumProprietaryLength
        else { return false }
        let arpc = Array(issuerAuthenticationData[0..<length])
        let csu = Array(issuerAuthenticationData[length..<(length + csuLength)])
        let proprietary = Array(issuerAuthenticationData[(length + csuLength)...])
        return verify(arpc: arpc, arqc: arqc, csu: csu, proprietary: proprietary, sessionKey: sessionKey)
    }
}
