/// CardCrypto: the cryptography a card and its issuer share, used by the simulated reader
/// (to produce) and the sandbox gateway (to verify), so that both sides come from one source.
public enum CardCryptoModule {}
