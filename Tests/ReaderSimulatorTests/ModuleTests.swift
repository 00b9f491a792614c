import ReaderSimulator
import Testing

@Test func moduleLinks() { #expect(String(describing: ReaderSimulatorModule.self).isEmpty == false) }
