/// SandboxCards: the sandbox test-card catalog and scenario triggers.
public enum SandboxCardsModule {}
