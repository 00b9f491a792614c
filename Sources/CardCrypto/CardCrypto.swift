/// CardCrypto: the cryptography a card and its issuer share, used by the simulated reader
/// (to produce) and the sandbox gateway (to verify), so that both sides come from one source.
///
/// - AES DUKPT, ANSI X9.24-3-2017: ``DUKPT`` (host), ``DUKPTReader`` (device), ``KSN``,
///   ``DUKPTKeyUsage``, ``DUKPTTransactionKey``.
/// - Card data encryption under DUKPT: ``CardDataEnvelope``.
/// - EMV AES cryptograms, EMV Book 2: ``EMVKeyDerivation``, ``CryptogramInput``,
///   ``generateCryptogram(input:sessionKey:)``, ``verifyCryptogram(_:input:sessionKey:)``, ``ARPC``.
/// - AES-CMAC, NIST SP 800-38B: ``AESCMAC``.
/// - The published sandbox test keys: ``SandboxKeys``.
/// - Errors: ``CardCryptoError``.
public enum CardCryptoModule {}
