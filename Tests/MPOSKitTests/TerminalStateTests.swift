import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// The terminal's mode changes only through its transitions; one operation at a time holds the gate.
@Suite(.timeLimit(.minutes(1))) struct TerminalStateTests {
    @Test func oneOperationAtATimeAndOnlyItsOwnHoldFreesTheTerminal() throws {
        let gate = OperationGate()
        #expect(!gate.isBusy)
        let payment = try gate.begin(.cardPayment)
        #expect(gate.isBusy && gate.operation == .cardPayment)
        for other in OperationGate.Operation.allCases {
            #expect(throws: MPOSError.terminalBusy) { try gate.begin(other) }
        }
        gate.end(payment)
        #expect(!gate.isBusy)
        let update = try gate.begin(.update)
        #expect(gate.operation == .update)
        gate.end(payment)  // an earlier hold: nothing changes
        #expect(gate.operation == .update)
        gate.end(update)
        gate.end(update)  // twice: still free, nothing else released
        #expect(!gate.isBusy)
    }

    @Test func anOperationRunsAnotherInsideItButNoOtherTaskDoes() async throws {
        let gate = OperationGate()
        let request = try gate.begin(.terminalAPIRequest)
        let inner = try await gate.nested(in: request) { () async throws(MPOSError) -> OperationGate.Operation? in
            let payment = try gate.begin(.cardPayment)
            defer { gate.end(payment) }
            // Another task meanwhile (the app calling sale) is refused.
            let other = await Task { () -> Bool in (try? gate.begin(.followUp)) == nil }.value
            #expect(other)
            return gate.operation
        }
        // The inner operation neither replaced nor released the request's hold.
        #expect(inner == .terminalAPIRequest)
        #expect(gate.operation == .terminalAPIRequest)
        gate.end(request)
        #expect(!gate.isBusy)
    }

    @Test func aHoldThatEndedGrantsNothingToTasksThatInheritedIt() async throws {
        let gate = OperationGate()
        let request = try gate.begin(.terminalAPIRequest)
        // A task started inside the request (a background forward) inherits its task-locals.
        let started = try await gate.nested(in: request) { () async throws(MPOSError) -> Task<Bool, Never> in
            Task {
                await Task.yield()
                return true
            }
        }
        gate.end(request)
        _ = await started.value
        let update = try gate.begin(.update)
        let refused = try await gate.nested(in: request) { () async throws(MPOSError) -> Bool in
            (try? gate.begin(.cardPayment)) == nil
        }
        #expect(refused)
        gate.end(update)
    }

    @Test func theDeviceIsACardReaderUntilANetworkedTerminalIsUsedAndAfterItIsLetGo() {
        var state = TerminalState()
        #expect(state.networked == nil)
        let networked = NetworkedTerminalDevice(
            link: NexoLink(
                NetworkedTerminal(url: URL(string: "http://127.0.0.1:1")!, poiID: "P400-1", saleID: "POS-1")),
            events: TerminalEvents(), clock: ContinuousClock())
        #expect(state.paymentDevice is CardReaderDevice)
        state.useNetworkedTerminal(networked)
        #expect(state.networked === networked)
        #expect(state.paymentDevice as? NetworkedTerminalDevice === networked)
        state.useCardReader()
        #expect(state.networked == nil)
        #expect(state.paymentDevice is CardReaderDevice)
    }

    @Test func offlineOnlyFromACachedSessionUntilALoginReachesTheGateway() {
        var state = TerminalState()
        #expect(!state.isOfflineOnly)
        let authorization = OfflineAuthorization(
            id: UUID(), gateway: "http://127.0.0.1:8080", userHash: OfflineAuthorization.userHash("sandbox"),
            merchant: MerchantInfo(
                id: "m_1", name: "Shop", currency: .eur, country: "DE", categoryCode: "5999"),
            policy: OfflinePolicyTerms(), onlineAt: Date(timeIntervalSince1970: 1_795_000_000),
            checkpoint: nil)
        state.cameUpOfflineOnly(authorization)
        #expect(state.isOfflineOnly)
        state.wentOnline()
        #expect(!state.isOfflineOnly)
    }
}
