import SandboxGateway
import Testing

@Test func moduleLinks() { #expect(String(describing: SandboxGatewayModule.self).isEmpty == false) }
