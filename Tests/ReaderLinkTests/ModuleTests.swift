import ReaderLink
import Testing

@Test func speaksVersionOne() { #expect(ReaderLinkProtocol.version == 1) }
