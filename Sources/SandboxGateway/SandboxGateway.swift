/// SandboxGateway: a real payment gateway for development.
public enum SandboxGatewayModule {}
