import Foundation
import GatewayAPI
import MPOSCore
import Testing

@testable import MPOSKit

/// The terminal's mode changes only through its transitions, one operation at a time.
@Suite(.timeLimit(.minutes(1))) struct TerminalStateTests {
    @Test func oneOperationAtATimeAndOnlyItsOwnEndFreesTheTerminal() throws {
        var state = TerminalState()
        #expect(!state.isBusy)
        try state.begin(.cardPayment)
        #expect(state.isBusy && state.operation == .cardPayment)
        #expect(throws: MPOSError.terminalBusy) { try state.begin(.followUp) }
        #expect(throws: MPOSError.terminalBusy) { try state.begin(.recovery) }
        state.end(.followUp)  // not the running one: nothing changes
        #expect(state.operation == .cardPayment)
        state.end(.cardPayment)
        #expect(!state.isBusy)
        try state.begin(.update)
        #expect(state.operation == .update)
    }

    @Test func theDeviceIsACardReaderUntilANetworkedTerminalIsUsedAndAfterItIsLetGo() {
        var state = TerminalState()
        #expect(state.networked == nil)
        let session = NetworkedSession(
            link: NexoLink(
                NetworkedTerminal(url: URL(string: "http://127.0.0.1:1")!, poiID: "P400-1", saleID: "POS-1")))
        #expect(state.paymentDevice is CardReaderDevice)
        state.useNetworkedTerminal(session)
        #expect(state.networked != nil)
        #expect(state.paymentDevice is NetworkedTerminalDevice)
        #expect(state.networked?.running == nil)
        state.useCardReader()
        #expect(state.networked == nil)
        #expect(state.paymentDevice is CardReaderDevice)
        // A running payment is noted only while a networked terminal is the device.
        state.networkedPaymentRunning(nil)
        #expect(state.networked == nil)
    }

    @Test func offlineOnlyFromACachedSessionUntilALoginReachesTheGateway() throws {
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
        // Offline-only and busy are independent: a sale runs offline-only.
        try state.begin(.cardPayment)
        #expect(state.isOfflineOnly && state.isBusy)
        state.end(.cardPayment)
        state.wentOnline()
        #expect(!state.isOfflineOnly)
    }
}
