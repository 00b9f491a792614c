/// Length of an application cryptogram (tag 9F26) in bytes.
public let applicationCryptogramLength = 8

/// Computes an application cryptogram (ARQC, TC or AAC), EMV Book 2, 8.1.2 with the AES MAC of
/// Annex A1.2.2: AES-CMAC (NIST SP 800-38B) under the session key over the input bytes, leftmost
/// 8 bytes (s = 8). CMAC pads internally, so no ISO/IEC 9797-1 padding is added first.
///
/// The card side calls this at GENERATE AC; the issuer calls it, or
/// ``verifyCryptogram(_:input:sessionKey:)``, to check an ARQC.
/// - Parameter sessionKey: from ``EMVKeyDerivation/sessionKey(iccMasterKey:atc:)`` with the
///   input's ``CryptogramInput/atc``.
/// - Returns: the 8-byte cryptogram.
public func generateCryptogram(input: CryptogramInput, sessionKey: AES128Key) throws(CardCryptoError)
    -> [UInt8]
{
    try AESCMAC.authenticationCode(
        for: input.bytes, key: sessionKey, truncatedTo: applicationCryptogramLength)
}

/// Checks an application cryptogram by recomputing it (EMV Book 2, 8.1.2) and comparing in
/// constant time. Returns `false`, never throws, for a wrong length or an unusable key.
public func verifyCryptogram(
    _ cryptogram: some Collection<UInt8>, input: CryptogramInput, sessionKey: AES128Key
)
    -> Bool
{
    guard cryptogram.count == applicationCryptogramLength,
        let expected = try? generateCryptogram(input: input, sessionKey: sessionKey)
    else { return false }
    return Bytes.constantTimeEqual(expected, cryptogram)
}
