import ReaderLink

/// ReaderLinkTCP: ReaderLink over TCP sockets (SwiftNIO).
public enum ReaderLinkTCPModule {}
