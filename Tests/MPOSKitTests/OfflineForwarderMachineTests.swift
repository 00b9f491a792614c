import Testing

@testable import MPOSKit

/// The background forward's rules, one transition at a time: when a pass runs, how long each
/// pause after a failed pass lasts, and that a sale stored during a pass gets a pass of its own.
@Suite(.timeLimit(.minutes(1))) struct OfflineForwarderMachineTests {
    typealias Machine = OfflineForwarderMachine

    @Test func aStoredSaleStartsAPassAndAFinishedPassEndsTheForward() {
        var machine = Machine()
        #expect(machine.handle(.salesWaiting) == [.runPass])
        #expect(machine.state == .forwarding(failures: 0, salesStoredMeanwhile: false))
        #expect(machine.handle(.passEnded(.finished)).isEmpty)
        #expect(machine.state == .idle)
    }

    @Test func passesThatCannotReachTheGatewayPauseTwoFourEightSecondsUpToAMinute() {
        var machine = Machine()
        _ = machine.handle(.salesWaiting)
        var pauses: [Duration] = []
        for _ in 0..<8 {
            for action in machine.handle(.passEnded(.gatewayAway)) {
                if case .pause(let pause) = action { pauses.append(pause) }
            }
            #expect(machine.handle(.pauseEnded) == [.runPass])
        }
        #expect(pauses == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
    }

    @Test func aBusyTerminalPausesAsAnAbsentGatewayDoes() {
        var machine = Machine()
        _ = machine.handle(.salesWaiting)
        #expect(machine.handle(.passEnded(.terminalBusy)) == [.pause(.seconds(2))])
        #expect(machine.state == .pausing(failures: 1))
    }

    @Test func aSaleStoredDuringAPassGetsAPassOfItsOwnAfterIt() {
        var machine = Machine()
        _ = machine.handle(.salesWaiting)
        #expect(machine.handle(.salesWaiting).isEmpty)
        #expect(machine.state == .forwarding(failures: 0, salesStoredMeanwhile: true))
        #expect(machine.handle(.passEnded(.finished)) == [.runPass])
        #expect(machine.handle(.passEnded(.finished)).isEmpty)
        #expect(machine.state == .idle)
    }

    @Test func aSaleStoredDuringAPauseWaitsForThePauseAndASuccessStartsTheCountAgain() {
        var machine = Machine()
        _ = machine.handle(.salesWaiting)
        _ = machine.handle(.passEnded(.gatewayAway))
        _ = machine.handle(.pauseEnded)
        _ = machine.handle(.passEnded(.gatewayAway))
        #expect(machine.state == .pausing(failures: 2))
        #expect(machine.handle(.salesWaiting).isEmpty)
        #expect(machine.handle(.pauseEnded) == [.runPass])
        #expect(machine.handle(.passEnded(.finished)).isEmpty)
        // The next outage starts from the shortest pause again.
        _ = machine.handle(.salesWaiting)
        #expect(machine.handle(.passEnded(.gatewayAway)) == [.pause(.seconds(2))])
    }

    @Test func eventsThatAreNotTheMachinesOwnChangeNothing() {
        var idle = Machine()
        #expect(idle.handle(.pauseEnded).isEmpty)
        #expect(idle.handle(.passEnded(.finished)).isEmpty)
        #expect(idle.state == .idle)
        var forwarding = Machine()
        _ = forwarding.handle(.salesWaiting)
        #expect(forwarding.handle(.pauseEnded).isEmpty)
        #expect(forwarding.state == .forwarding(failures: 0, salesStoredMeanwhile: false))
    }
}
