import MPOSCore
import ReaderLink
import Testing

@testable import MPOSKit

/// The reader link's rules, one transition at a time, with no reader: what each event does to
/// the state and which actions it asks for (the delays are the policy's, on whatever clock
/// the driver runs).
@Suite(.timeLimit(.minutes(1))) struct ReaderLinkMachineTests {
    final class FakeLink: Sendable {}
    typealias Machine = ReaderLinkMachine<FakeLink>

    static let policy = ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(2), maximumAttempts: 3)

    static func route(reconnect: ReconnectPolicy? = policy) -> Machine.Route {
        Machine.Route(
            reconnect: reconnect, secret: try! SharedSecret(bytes: Array(repeating: 7, count: 32)),
            open: { throw MPOSError.readerNotConnected })
    }

    /// A machine connected through `route`, and its link.
    static func connected(_ route: Machine.Route) -> (Machine, FakeLink) {
        var machine = Machine()
        _ = machine.handle(.connectStarted)
        let link = FakeLink()
        _ = machine.handle(.paired(link, route: route))
        return (machine, link)
    }

    @Test func anAppConnectAnnouncesConnectingThenListensToThePairedLink() {
        var machine = Machine()
        #expect(machine.connectionState == .notConnected)
        #expect(machine.handle(.connectStarted) == [.announceConnecting(attempt: 0)])
        #expect(machine.connectionState == .connecting)
        let link = FakeLink()
        #expect(machine.handle(.paired(link, route: nil)) == [.listen])
        #expect(machine.connectionState == .connected)
        #expect(machine.link === link)
        #expect(machine.route == nil)
    }

    @Test func aFailedConnectEndsNotConnectedAndSaysSo() {
        var machine = Machine()
        _ = machine.handle(.connectStarted)
        #expect(machine.handle(.connectFailed) == [.announceNotConnected])
        #expect(machine.connectionState == .notConnected)
        // Once more changes nothing (the catalogue's refusal, then the connect's own failure).
        #expect(machine.handle(.connectFailed).isEmpty)
    }

    @Test func aReaderTheCatalogueRefusesIsClosedAfterItPaired() {
        var (machine, link) = Self.connected(Self.route())
        #expect(machine.handle(.connectFailed) == [.stopListening, .close(link), .announceNotConnected])
        #expect(machine.link == nil)
    }

    @Test func aLinkThatPairsAfterTheAppLetGoIsNotTaken() {
        var machine = Machine()
        _ = machine.handle(.connectStarted)
        _ = machine.handle(.letGo)
        let late = FakeLink()
        #expect(machine.handle(.paired(late, route: nil)) == [.close(late)])
        #expect(machine.connectionState == .notConnected)
    }

    @Test func aDropWithoutReconnectionTellsThePaymentAndEnds() {
        var (machine, link) = Self.connected(Self.route(reconnect: nil))
        #expect(machine.handle(.dropped(link)) == [.tellPaymentLost, .announceNotConnected])
        #expect(machine.connectionState == .notConnected)
        // The way back stays for an update's restart.
        #expect(machine.route != nil)
    }

    @Test func aDropOfAnotherLinkChangesNothing() {
        var (machine, _) = Self.connected(Self.route())
        #expect(machine.handle(.dropped(FakeLink())).isEmpty)
        #expect(machine.connectionState == .connected)
    }

    @Test func aDropWithReconnectionSchedulesAttemptsAsThePolicyWaitsThenGivesUp() {
        let route = Self.route()
        var (machine, link) = Self.connected(route)
        #expect(
            machine.handle(.dropped(link)) == [
                .tellPaymentLost, .announceNotConnected, .scheduleAttempt(1, after: .milliseconds(500)),
            ])
        #expect(machine.connectionState == .connecting)
        #expect(machine.handle(.attemptDue(attempt: 1, busy: false)) == [.announceConnecting(attempt: 1), .attempt(1, route)])
        #expect(machine.handle(.attemptFailed(attempt: 1)) == [.scheduleAttempt(2, after: .seconds(1))])
        // While an operation runs the attempt is not made, and counts.
        #expect(machine.handle(.attemptDue(attempt: 2, busy: true)) == [.scheduleAttempt(3, after: .seconds(2))])
        #expect(machine.handle(.attemptDue(attempt: 3, busy: false)) == [.announceConnecting(attempt: 3), .attempt(3, route)])
        #expect(machine.handle(.attemptFailed(attempt: 3)) == [.announceNotConnected])
        #expect(machine.connectionState == .notConnected)
        // Given up: the route stays for an update, without automatic reconnection.
        #expect(machine.route?.reconnect == nil)
        #expect(machine.handle(.attemptDue(attempt: 3, busy: false)).isEmpty)
    }

    @Test func aReconnectionThatPairsListensAgain() {
        let route = Self.route()
        var (machine, link) = Self.connected(route)
        _ = machine.handle(.dropped(link))
        _ = machine.handle(.attemptDue(attempt: 1, busy: false))
        let again = FakeLink()
        #expect(machine.handle(.reached(again, routeID: route.id)) == [.stopReconnecting, .listen])
        #expect(machine.link === again)
    }

    @Test func aStaleAttemptOrRouteIsIgnored() {
        let route = Self.route()
        var (machine, link) = Self.connected(route)
        _ = machine.handle(.dropped(link))
        // An attempt number that is not the current one (a timer that fired late).
        #expect(machine.handle(.attemptDue(attempt: 2, busy: false)).isEmpty)
        #expect(machine.handle(.attemptFailed(attempt: 5)).isEmpty)
        // A link reached through a route no longer in force is closed, not taken.
        let other = Self.route()
        let stray = FakeLink()
        #expect(machine.handle(.reached(stray, routeID: other.id)) == [.close(stray)])
        #expect(machine.connectionState == .connecting)
    }

    @Test func lettingGoStopsAReconnectionAndForgetsTheWayBack() {
        var (machine, link) = Self.connected(Self.route())
        _ = machine.handle(.dropped(link))
        #expect(machine.handle(.letGo) == [.stopReconnecting, .announceNotConnected])
        #expect(machine.route == nil)
        #expect(machine.connectionState == .notConnected)
    }

    @Test func lettingGoClosesTheLinkAndTellsThePayment() {
        var (machine, link) = Self.connected(Self.route())
        #expect(machine.handle(.letGo) == [.stopListening, .close(link), .tellPaymentLost, .announceNotConnected])
        #expect(machine.route == nil)
        // Nothing connected: nothing to do, nothing to announce.
        #expect(machine.handle(.letGo).isEmpty)
    }

    @Test func anUpdateClosesTheLinkKeepsTheWayAndReachesTheReaderAgain() {
        let route = Self.route(reconnect: nil)
        var (machine, link) = Self.connected(route)
        #expect(machine.handle(.close) == [.stopListening, .close(link), .tellPaymentLost, .announceNotConnected])
        #expect(machine.route?.id == route.id)
        let restarted = FakeLink()
        #expect(machine.handle(.reached(restarted, routeID: route.id)) == [.stopReconnecting, .listen])
        #expect(machine.link === restarted)
    }
}
