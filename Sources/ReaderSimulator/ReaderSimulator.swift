/// ReaderSimulator: a complete card reader in software.
public enum ReaderSimulatorModule {}
