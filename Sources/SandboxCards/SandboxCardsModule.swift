/// SandboxCards: the sandbox test-card catalog and scenario triggers. The catalog itself is
/// ``SandboxCards``; this marker stays for code that names the module.
public enum SandboxCardsModule {}
