import EMV
import Foundation
import GatewayAPI
import MPOSCore
import ReaderLink

/// The reader link: pairing, listening to the reader, its messages and its loss.
extension PaymentTerminal {
    /// The reader link's keep-alive interval (docs/reader-protocol.md §6): after this long
    /// without a frame from the reader and nothing pending, the SDK pings; an unanswered ping
    /// closes the link. Without it a reader that goes silent mid-transaction (or whose frame
    /// was lost to a checksum failure) would leave the sale waiting for ever.
    static let readerKeepAlive: Duration = .seconds(15)

    /// Pairs with a reader over `transport`; keeps the link alive with pings (see
    /// ``readerKeepAlive``).
    ///
    /// - Throws: ``MPOSError/terminalBusy`` during an operation, the code
    ///   `MPOSError.Code.readerInUse` when another terminal holds the reader,
    ///   `MPOSError.Code.readerSharedSecretMismatch` when the reader holds another secret, and
    ///   ``MPOSError/readerLinkFailed`` when the link drops or times out during pairing.
    func connectReader(transport: any ReaderTransport, secret: SharedSecret) async throws(MPOSError) {
        guard !state.isBusy else { throw MPOSError.terminalBusy }
        await disconnect()
        try await connecting { () async throws(MPOSError) in try await pair(transport: transport, secret: secret) }
    }

    /// Runs a connect the app called as ``ReaderConnectionState/connecting``: announces it,
    /// and says the terminal is not connected when it fails.
    func connecting(_ body: () async throws(MPOSError) -> Void) async throws(MPOSError) {
        readerLink.connecting = true
        emit(.readerConnecting(attempt: 0))
        do {
            try await body()
            readerLink.connecting = false
        } catch {
            readerLink.connecting = false
            if readerLink.connection == nil { emit(.readerConnection(connected: false, info: nil)) }
            throw error
        }
    }

    /// Pairs over `transport` and starts listening to the reader.
    ///
    /// - Parameter pairingTimeout: what is left of a caller's connect deadline; when it runs
    ///   out the error is ``MPOSError/readerConnectTimeout``. Nil: the link's own timeout.
    func pair(transport: any ReaderTransport, secret: SharedSecret, pairingTimeout: Duration? = nil)
        async throws(MPOSError)
    {
        let link: ReaderConnection
        do {
            link = try await ReaderConnection.open(
                transport: transport, secret: secret, clock: clock, keepAlive: Self.readerKeepAlive,
                pairingTimeout: pairingTimeout)
        } catch .timeout where pairingTimeout != nil {
            throw MPOSError.readerConnectTimeout
        } catch .readerInUse(let holder) {
            throw ReaderLinkError.readerInUse(by: holder).mposError
        } catch .sharedSecretInvalid {
            // Only a proof that did not verify says the secrets differ; a dropped link does not.
            throw ReaderLinkError.sharedSecretInvalid.mposError.withMessage(
                "The reader holds a different shared secret; check the secret configured for it.")
        } catch {
            throw MPOSError.readerLinkFailed.withMessage(
                "The reader could not be paired: \(Self.pairingFailure(error)).")
        }
        readerLink.connection = link
        // Unstructured: the reader's messages are read for as long as the link lives; `disconnect()` cancels it.
        readerLink.pump = Task { await self.listen(to: link) }
        let info = try? await deviceInfo()
        if let catalogue = readerLink.catalogue, let model = info?.model, catalogue.terminal(model: model) == nil {
            // Not a model the app supports: let the link go without announcing a connection.
            readerLink.connection = nil
            readerLink.info = nil
            readerLink.pump?.cancel()
            readerLink.pump = nil
            await link.close()
            throw MPOSError.readerNotSupported.withMessage(
                "The reader's model \"\(model)\" is not in the app's terminal catalogue.")
        }
        // Another reader's status never stands for this one's: ask for this one's now.
        if updateSettings.reader.status(of: info?.serialNumber) == nil {
            updateSettings.reader.forget()
            if !state.isOfflineOnly, await client.isLoggedIn { _ = try? await initializeTerminal() }
        }
        emit(.readerConnection(connected: true, info: info))
    }

    /// Why pairing failed, in words that point at the link rather than at the secret.
    static func pairingFailure(_ error: ReaderLinkError) -> String {
        switch error {
        case .linkClosed: "the link closed during pairing (the reader or the network dropped it)"
        case .timeout: "the reader did not complete pairing in time"
        default: error.description
        }
    }

    /// Closes the reader link and stops any reconnection.
    public func disconnect() async {
        updateSettings.reader.forget()
        state.useCardReader()
        readerLink.reconnectPlan = nil
        readerLink.linkPlan = nil
        let wasReconnecting = readerLink.connection == nil && readerLink.reconnecting != nil
        readerLink.reconnecting?.cancel()
        readerLink.reconnecting = nil
        // A reconnection between attempts was `connecting`: it ends as not connected.
        if wasReconnecting { emit(.readerConnection(connected: false, info: nil)) }
        await closeLink()
    }

    /// Closes the reader link, keeping any reconnection plan (a reader that restarts after an
    /// update is reached again through it).
    func closeLink() async {
        guard let link = readerLink.connection else { return }
        readerLink.connection = nil
        await link.close()
        readerLink.pump?.cancel()
        readerLink.pump = nil
        readerLink.info = nil
        payments.inbox?.yield(.readerLost)
        emit(.readerConnection(connected: false, info: nil))
    }

    /// The connected reader's description (``ReaderTools/info()``).
    func deviceInfo() async throws(MPOSError) -> DeviceInfo {
        let info: DeviceInfo = try await ask(.getDeviceInfo, "device info") { answer in
            if case .deviceInfo(let info) = answer { info } else { nil }
        }
        readerLink.info = info
        noteBattery(info.battery)
        return info
    }

    /// Sends `request` to the connected reader and picks the expected answer out of its reply.
    func ask<Answer>(
        _ request: ReaderMessage, _ what: String, _ pick: (ReaderMessage) -> Answer?
    ) async throws(MPOSError) -> Answer {
        guard let connection = readerLink.connection else { throw MPOSError.readerNotConnected }
        let answer: ReaderMessage
        do { answer = try await connection.request(request) } catch {
            throw MPOSError.readerLinkFailed.withMessage("The reader did not answer \(what): \(error).")
        }
        guard let picked = pick(answer) else {
            throw MPOSError.readerLinkFailed.withMessage("The reader answered \(what) with another message.")
        }
        return picked
    }

    // MARK: - Reader events

    /// Takes the reader's messages on the terminal's own executor: each one resumes this
    /// loop on the actor, instead of waking a task elsewhere that then hops onto the actor.
    /// The loop holds the terminal until the link closes or ``disconnect()`` cancels it.
    private func listen(to link: ReaderConnection) async {
        for await message in link.events { readerSaid(message) }
        readerClosed(link)
    }

    func readerSaid(_ message: ReaderMessage) {
        if case .battery(let status) = message { noteBattery(status) }
        // A scan is never part of a payment: it reaches the app even while one runs.
        if case .scan(let scan) = message {
            emit(.scan(scan))
            return
        }
        if case .scannerDisabled = message {
            emit(.scannerDisabled)
            return
        }
        // Once the engine has its outcome it reads no more: what the reader says after (the card
        // taken out after a chip payment) goes to the app directly.
        if let inbox = payments.inbox, payments.engine?.phase != .finished {
            inbox.yield(.reader(message))
            return
        }
        switch message {
        case .cardEvent(let event): emit(.card(event))
        case .statusReport(let report):
            emit(
                .readerStatus(
                    status: report.status, message: report.message, cancelAllowed: report.cancelAllowed))
        default: break
        }
    }

    private func readerClosed(_ link: ReaderConnection) {
        guard readerLink.connection === link else { return }
        readerLink.connection = nil
        readerLink.info = nil
        payments.inbox?.yield(.readerLost)
        emit(.readerConnection(connected: false, info: nil))
        linkDropped()
    }
}
