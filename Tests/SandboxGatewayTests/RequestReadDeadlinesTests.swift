import NIOCore
import Testing

@testable import SandboxGateway

/// The rule behind the request head and body timeouts, with the times given.
@Suite(.timeLimit(.minutes(1))) struct RequestReadDeadlinesTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    var machine = RequestReadDeadlines(headTimeout: .seconds(10), bodyTimeout: .seconds(30))

    @Test mutating func theFirstHeadIsDueFromTheConnectionsOpening() {
        #expect(machine.opened(at: start) == .closeAt(start + .seconds(10)))
        // More bytes of the same head do not move the deadline: a byte a second gains nothing.
        #expect(machine.bytesArrived(at: start + .seconds(9)) == .none)
        #expect(machine.isOverdue(at: start + .seconds(10)))
        #expect(!machine.isOverdue(at: start + .seconds(9)))
    }

    @Test mutating func theBodyIsDueFromTheEndOfTheHead() {
        _ = machine.opened(at: start)
        #expect(machine.headArrived(at: start + .seconds(2)) == .closeAt(start + .seconds(32)))
        #expect(machine.bytesArrived(at: start + .seconds(20)) == .none)
        #expect(!machine.isOverdue(at: start + .seconds(31)))
        #expect(machine.isOverdue(at: start + .seconds(32)))
    }

    @Test mutating func nothingIsDueBetweenRequestsUntilTheNextOnesFirstByte() {
        _ = machine.opened(at: start)
        _ = machine.headArrived(at: start)
        #expect(machine.requestEnded() == .cancel)
        // Keep-alive: waiting for the next request is the idle timeout's business.
        #expect(!machine.isOverdue(at: start + .seconds(3600)))
        let next = start + .seconds(100)
        #expect(machine.bytesArrived(at: next) == .closeAt(next + .seconds(10)))
        #expect(machine.phase == .head(due: next + .seconds(10)))
    }
}

/// Which hosts to bind count as this machine only.
@Suite(.timeLimit(.minutes(1))) struct LoopbackHostTests {
    @Test(arguments: [
        "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost",
        "LOCALHOST",
    ])
    func loopbackAddressesServePlainHTTP(host: String) {
        #expect(LoopbackHost.contains(host))
        #expect(!SandboxGatewayConfiguration(host: host).servesPlainHTTPBeyondLoopback)
    }

    @Test(arguments: [
        "0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "::ffff:10.0.0.1", "gateway.internal", "128.0.0.1", "",
    ])
    func otherAddressesAreReachableFromTheNetwork(host: String) {
        #expect(!LoopbackHost.contains(host))
        #expect(SandboxGatewayConfiguration(host: host).servesPlainHTTPBeyondLoopback)
    }
}
