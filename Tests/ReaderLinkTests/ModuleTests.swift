import ReaderLink
import Testing

@Test(.timeLimit(.minutes(1))) func speaksVersionOne() { #expect(ReaderLinkProtocol.version == 1) }
