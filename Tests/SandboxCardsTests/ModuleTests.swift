import SandboxCards
import Testing

@Test func moduleLinks() { #expect(String(describing: SandboxCardsModule.self) == "SandboxCardsModule") }
